//! [`crate::protocol::Analysis`] -> bytes: one [`Render`] implementation per output format (hyperfine's one
//! exporter per format), chosen by [`renderer`]. The per-benchmark table of every format (its columns,
//! headers and cells) is defined once, in `columns`.
//!
//! Every warning, gate reason and hint is worded here, in `words/`, from the cause the protocol recorded.
//! `output.rs` holds the formats, the renderer of each and the style; `cells.rs` the result words every
//! format shows alike; `where_changed.rs` where an instruction count changed, function by function; `disagreement.rs` where a
//! benchmark's time and its instruction count disagree. This file is the index and holds no code.
//!
//! Reports only present: they take no decision, compute no statistic and never re-derive a verdict that the
//! analysis carries. All rounding lives in [`mod@format`]; JSON goes through private wire structs carrying
//! `"schema": "cargo-speedup/1"` (`docs/json.md`), never `Serialize` on internal types. Nothing
//! here prints `NaN`: a missing or non-finite value is `null` (JSON), empty (CSV) or `-` (table, Markdown).

pub(crate) mod bisect;
pub(crate) mod bmf;
mod cells;
mod columns;
pub(crate) mod csv;
mod disagreement;
mod footnotes;
pub(crate) mod format;
pub(crate) mod gab;
pub(crate) mod glyph;
mod headline;
#[cfg(test)]
mod hostile_tests;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod markdown;
mod output;
#[cfg(test)]
mod property_tests;
pub(crate) mod race;
pub(crate) mod simulation;
pub(crate) mod speeduptest_sh;
mod suite;
pub(crate) mod table;
mod where_changed;
pub(crate) mod words;

pub(crate) use cells::{
    NO_DIFFERENCE, display_unit, exact_change, hpt_winner, mean_test_text, verdict_with_level,
};
pub(crate) use footnotes::{Footnotes, concerned, warning_kind_name, warnings_of};
pub(crate) use format::utc_minute;
pub(crate) use headline::{Mood, headline, ruled_out_pct};
pub(crate) use headline::{shown, stderr_summary};
pub(crate) use output::{ColorChoice, Format, Render, Style, color_enabled, renderer};
pub(crate) use suite::{gate_note, nothing_compared, suite_facts};

#[cfg(test)]
mod tests;
