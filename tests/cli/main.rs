//! CLI tests on committed fixtures: each module drives the `cargo-speedup` binary on files under
//! `fixtures/` and checks its output and exit status.

mod browser;
mod calibrate;
mod compare;
mod inputs;
mod merge;
mod messages;
mod outputs;
mod record;
mod shape;
mod simulate;
mod speeduptest;
mod support;
mod webdriver;
