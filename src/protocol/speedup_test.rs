//! The Speedup-Test protocols of paper 000: mean and median tests, the confidence-level search, aggregates.
