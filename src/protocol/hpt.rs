//! Hierarchical Performance Testing (paper 003 §4): the suite-wide confidence and the r-speedup.
