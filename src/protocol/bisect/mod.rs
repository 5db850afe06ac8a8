//! The decisions of `cargo speedup bisect` (`docs/bisect.md`), shared by the command and by
//! `simulate --bisect`: what one comparison shows, what one step's comparisons say about a midpoint, the
//! error budget over the steps, where the search stands and whether the measured commits show more than
//! one step. Pure: it sees suites and readings, never runs; the commits are indices into the path, 0 being
//! GOOD and `len` being BAD.
//!
//! Must not: measure, print, word anything, or guess. A step that the readings do not decide stops the
//! search, which then reports the interval of commits that remains.
//!
//! This file is the index: `mod` lines and re-exports only.
//!
//! | file | decides |
//! |---|---|
//! | `reading` | what one comparison shows ([`Reading`], [`read`] of what a bisection [`Follow`]s), and whether it shows the change sought beyond the threshold |
//! | `step` | the step rule: a midpoint like GOOD, like BAD, or undecided ([`classify`]) |
//! | `budget` | the error budget: the steps at most, the comparisons budgeted, the confidence of each |
//! | `search` | the search: the next midpoint, each step's comparisons, when it stops ([`search`]) |
//! | `more_steps` | whether the measured commits show more than one step ([`more_steps`]) |

mod budget;
mod more_steps;
mod reading;
mod search;
mod step;

pub use budget::{budgeted_comparisons, max_steps, per_comparison_confidence};
pub use more_steps::{Evidence, MoreSteps, Shown, more_steps};
pub use reading::{Follow, Reading, changed_benchmarks, read};
pub use search::{Comparisons, Cut, Search, Searched, StepReadings, Stopped, search};
pub use step::{Step, classify};
