// A `tpu` op in custom (pretty) form this tool does not know (`tpu.trace_start`
// has no custom syntax in jaxlib): only its generic form parses.
module {
  func.func @k() {
    tpu.trace_start "step" level 10
    return
  }
}
