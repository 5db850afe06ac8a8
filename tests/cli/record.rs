//! CLI tests of `record`.
