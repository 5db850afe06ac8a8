//! Building and running benchmarks at git revisions: the only module that starts processes.
