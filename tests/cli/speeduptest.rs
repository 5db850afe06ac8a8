//! CLI tests of `speeduptest`.
