//! [`Bisection`] -> bytes: a table for people, JSON with its own schema `cargo-speedup-bisect/1`
//! (`docs/json.md` §10), Markdown for pull requests, CSV with one row per commit of the path, and HTML with
//! the chart of the speedup along the range; `--each` reports one per benchmark.
//!
//! Like the other reports, these only present: each step's conclusion is `protocol::bisect`'s. Commit
//! subjects are written through `crate::inert` (the terminal rule, the Markdown rule, the CSV rule).
//!
//! This file is the index: `mod` lines and re-exports only.
//!
//! | file | holds |
//! |---|---|
//! | `bisection` | the data a bisection report renders ([`Bisection`]) and its sentences: the summary, the named commit against its parent |
//! | `text` | [`render`] in each format; the table, Markdown and CSV |
//! | `json` | the JSON object, schema `cargo-speedup-bisect/1` |
//! | `html` | the HTML page with the chart of the speedup along the range |
//! | `each` | `--each`: one bisection per benchmark, in each format |

mod bisection;
pub(crate) mod each;
pub(crate) mod html;
mod json;
mod text;

pub(crate) use bisection::{
    Bisection, Ending, Measurement, NamedChange, PathEntry, comparison_level,
};
pub(crate) use text::render;

#[cfg(test)]
mod formats_tests;
