//! The gate: whether a comparison fails under `--fail-on` and `--threshold`.
