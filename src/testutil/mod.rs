//! Data and helpers shared by the tests of several modules: hand-built analyses and a bisection for the
//! renderers, the paper's example and the R oracle cases of the Speedup-Test protocol, a part report for
//! `merge`, the committed input files of the readers, a report rendered into a string. Compiled only with
//! the tests (`#[cfg(test)]` in `lib.rs`), never in the product; a fixture here may import from any layer.
//! A helper used by the tests of one module only stays in that module's tests.

pub(crate) mod analyses;
pub(crate) mod bisection;
pub(crate) mod part_report;
pub(crate) mod protocol_cases;
pub(crate) mod render;
pub(crate) mod source_fixtures;
