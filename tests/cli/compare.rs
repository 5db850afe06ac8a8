//! CLI tests of `compare`.
