module {
  func.func @k() -> f32 {
    return %missing : f32
  }
}
