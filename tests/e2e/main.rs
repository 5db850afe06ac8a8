//! End-to-end tests that create git repositories with real criterion benchmarks and run the binary on them.
