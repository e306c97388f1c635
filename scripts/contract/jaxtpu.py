"""Shared by the scripts of this folder: makes JAX 0.12 on a CPU host lower Pallas kernels as for a TPU of a
chosen kind (`tpu_info` answers for it), and lowers a function for TPU."""
import re

import jax
from jax._src import tpu_info


def pretend(device_kind="TPU v6e", cores=1):
    """`tpu_info.get_tpu_info()` answers for `device_kind` (Pallas asks it for tiling and DMA rules)."""
    tpu_info.get_device_kind = lambda: device_kind
    tpu_info.get_num_device_cores = lambda: cores


def lower(f, *args):
    """JAX's module text of `f(*args)` lowered for TPU (no TPU needed)."""
    return jax.jit(f).trace(*args).lower(lowering_platforms=("tpu",)).as_text()


def call_types(text):
    """`(operand types) -> result types` of every tpu_custom_call of a module text."""
    return [m.group(1) + " -> " + m.group(2) for m in
            re.finditer(r"stablehlo\.custom_call @tpu_custom_call\(.*?\).*?: \((.*?)\) -> (.*)", text)]
