//! cargo-speedup tells, with a stated confidence, whether a change made Rust code faster or slower.
//!
//! The pipeline is the module list:
//!
//! ```text
//! sources ─┐
//!          ├─> model ──> protocol (on a pure stats core) ──> report ──> verdict / exit code
//! measure ─┘
//! ```
//!
//! - [`sources`] reads existing results (criterion, hyperfine, Go, JSON) into [`model::Results`];
//!   [`measure`] produces them by building and running git revisions: how runs start is
//!   `measure/commands.rs`, then the stages `measure/prepare/` (checkout, build, layouts), `measure/run/`
//!   (blocks and looks) and `measure/read.rs` (its module doc is the map).
//! - [`model`] holds validated samples and pairs BASE with HEAD.
//! - [`stats`] is pure mathematics (one test per file, checked against R); [`protocol`] takes the
//!   decisions of the Speedup-Test (paper 000) and of HPT (paper 003) and yields one
//!   [`protocol::Analysis`].
//! - [`simulation`] replays the protocol's decisions on values drawn from a known truth and counts its
//!   errors (`cargo speedup simulate` and the tests of the error rates).
//! - [`report`] renders an analysis as a table, JSON, Markdown, CSV or an HTML page.
//! - [`app`] runs one command as a list of these stages; [`cli`] and [`plan`] parse and validate options.
//! - `inert` (crate-private, a leaf every writer uses) makes text from the input inert at each sink it is
//!   written to: the terminal and CI logs, Markdown, HTML, CSV (`docs/security.md`).
//!
//! The layers, from the bottom: [`stats`] and the small helpers (`inert`, `atomic_write`, [`parallel`],
//! [`partition`], [`suggest`]); [`model`]; [`sources`]; [`protocol`]; [`simulation`];
//! [`report`]; [`measure`] (which calls the protocol between looks); [`cli`]; [`plan`]; [`app`]. A file
//! names modules of its own layer or lower ones only, and no two files import each other, directly or
//! through others (the crate's `module_graph_tests.rs` checks both).
//!
//! The methods, the decisions taken where the sources are silent or wrong, and the input and output
//! formats are described in the repository's `docs/` directory (`docs/README.md` is the index). Code
//! comments cite its pages as `docs/<page>.md §n`, and the papers by number:
//!
//! | paper | citation | used for |
//! |---|---|---|
//! | 000 | S.-A.-A. Touati, J. Worms, S. Briais, *The Speedup Test*, technical report, HAL inria-00443839v2, 2010 | the mean and median protocols, G and S, the proportion of accelerated benchmarks, `speeduptest` |
//! | 001 | J. Worms, S. Touati, *Parametric and Non-Parametric Statistics for Program Performance Analysis and Comparison*, INRIA RR-8875, 2016 | P\[HEAD run faster\]; Gaussian mixtures, modes and the multimodal warning |
//! | 002 | H. Leather, M. O'Boyle, B. Worton, *Raced Profiles: Efficient Selection of Competing Compiler Optimizations*, LCTES 2009 | sequential sampling: run until decided, races of several revisions |
//! | 003 | T. Chen, Q. Guo, O. Temam, Y. Wu, Y. Bao, Z. Xu, Y. Chen, *Statistical Performance Comparisons of Computers*, IEEE Trans. Computers 64(5), 2015 | HPT and the r-speedup |
//! | 004 | S.-A.-A. Touati, *Towards a Statistical Methodology to Evaluate Program Speedups and their Optimisation Techniques*, HAL hal-00356529, 2009 | background; superseded by 000 |

pub mod app;
mod atomic_write;
pub mod cli;
pub(crate) mod inert;
pub mod measure;
pub mod model;
pub mod parallel;
pub mod partition;
pub mod plan;
pub mod protocol;
pub mod report;
pub mod simulation;
pub mod sources;
pub mod stats;
pub mod suggest;

#[cfg(test)]
mod module_graph_tests;
#[cfg(test)]
mod purity_tests;
#[cfg(test)]
mod testutil;
