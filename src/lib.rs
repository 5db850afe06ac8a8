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
//!   [`measure`] produces them by building and running two git revisions.
//! - [`model`] holds validated samples and pairs BASE with HEAD.
//! - [`stats`] is pure mathematics (one test per file, checked against R); [`protocol`] takes the
//!   decisions of the Speedup-Test (paper 000) and of HPT (paper 003) and yields one
//!   [`protocol::Analysis`].
//! - [`report`] renders an analysis as a table, JSON, Markdown or CSV.
//! - [`app`] runs one command as a list of these stages; [`cli`] and [`plan`] parse and validate options.

pub mod app;
pub mod cli;
pub mod measure;
pub mod model;
pub mod plan;
pub mod protocol;
pub mod report;
pub mod sources;
pub mod stats;
