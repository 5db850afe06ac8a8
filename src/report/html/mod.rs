//! The HTML report (`--format html`, `--html FILE`): one self-contained page that a person reads in a
//! browser, straight from a CI artifact. Inline CSS and inline SVG only: no script, no font, no network.
//!
//! What it shows, top to bottom: the suite's verdict in one sentence (as the Markdown report), the forest
//! plot of every benchmark's speedup and interval ([`forest`]), HPT's confidence curve ([`curve`]), the
//! table and the suite's figures, the gate, the warnings, per benchmark the runs of BASE and HEAD
//! ([`runs`]), and the glossary of the terms the page printed, linked to their pages of `docs/`
//! (`report::words::glossary`). Each picture that cannot be drawn (one run per side, no interval, an interval without
//! bound, no usable benchmark) says why in its place.
//!
//! The SVG is written by hand rather than with `plotters` (criterion's choice): the plots are a few lines,
//! circles and labels, and writing them directly keeps the output small (the page of 1000 benchmarks must
//! stay under 5 MB), deterministic for the snapshot tests, escaped by one function we control
//! ([`svg::escape`]), and free of a dependency tree with font handling the page does not need.
//!
//! Like every report it only presents: figures come rounded from `report::format`, the table's columns and
//! cells from `report::columns`, sentences from the functions the Markdown report uses, verdicts from the
//! analysis.
//!
//! This file is the index: `mod` lines and re-exports only.
//!
//! | file | holds |
//! |---|---|
//! | `page` | the analysis' page in its section order ([`page`]), the page of a report without plots ([`text_page`]) |
//! | `sections` | the page's sections: the header, the table, the suite and the gate, the warnings, the runs, the terms |
//! | `forest`, `curve`, `runs` | the plots: the forest of speedups, HPT's confidence curve, each benchmark's runs |
//! | `svg` | the SVG primitives, the scales and [`svg::escape`] |
//! | `css` | the style sheet of every page ([`CSS`]) |

mod css;
pub(crate) mod curve;
pub(crate) mod forest;
mod page;
pub(crate) mod runs;
mod sections;
pub(crate) mod svg;

pub(crate) use css::CSS;
pub use page::page;
pub(crate) use page::{HtmlReport, text_page};

#[cfg(test)]
mod tests;
