//! CLI tests on committed fixtures: each module drives the `cargo-speedup` binary on files under
//! `fixtures/` and checks its output and exit status; `docs` checks the documentation's links. Every
//! process they start runs in a known environment (`../e2e/environment.rs`; `hermetic` tests it).

mod bisect;
mod browser;
mod calibrate;
mod compare;
mod counts;
mod docs;
/// The known environment of every process the tests start, shared with the end-to-end suite.
#[path = "../e2e/environment.rs"]
#[allow(dead_code)]
mod environment;
mod formats;
mod hermetic;
mod hostile;
mod inputs;
mod leftovers;
mod merge;
mod messages;
mod outputs;
mod paired;
mod record;
/// The end-to-end suite's repository helpers (git, files, commits), shared rather than copied.
#[path = "../e2e/support.rs"]
#[allow(dead_code)]
mod repos;
mod revisions;
mod shape;
mod simulate;
mod speeduptest;
mod support;
mod unusable;
mod webdriver;
