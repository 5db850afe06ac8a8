//! `cargo speedup race REV1 REV2 ...`: measure the revisions together, eliminating the slower ones
//! between looks, then report the race.

use std::io::Write;

use anyhow::{Context, Result};

use super::compare::check_report_outputs;
use super::{Input, Outcome, is_stdout, write_to};
use crate::cli::{Format, RaceArgs};
use crate::measure;
use crate::model::Results;
use crate::plan::{AnalysisPlan, OutputPlan};
use crate::protocol::race::{RaceAnalysis, RaceOptions, open_in_race, race};
use crate::report::{Style, color_enabled, race::render};

/// `race`: check the options, measure, analyse, render. A race that ran exits 0: it has no gate.
pub fn race_revisions(args: &RaceArgs) -> Result<Outcome> {
    let plan = AnalysisPlan::from_args(&args.analysis)?;
    let manifest = args
        .run
        .manifest_path
        .clone()
        .unwrap_or_else(|| "Cargo.toml".into());
    check_report_outputs(&args.analysis, &[Input::File(manifest)])?;
    let options = |looks| RaceOptions {
        confidence: plan.options.confidence,
        equivalence_pct: plan.options.equivalence_pct,
        looks,
        hpt_alpha: plan.options.hpt_alpha,
    };
    let decide = |so_far: &[Results], looks: u32| open_in_race(so_far, &options(looks));
    let measured = measure::measure_race(
        &args.revisions,
        &args.run,
        args.analysis.quiet,
        plan.options.confidence,
        &decide,
    )?;
    let analysis = race(
        &measured.results,
        &measured.labels,
        &options(measured.looks),
    );
    write_report(&analysis, &plan.output)?;
    if !plan.output.quiet && plan.output.path.as_deref().is_some_and(|p| !is_stdout(p)) {
        eprintln!("{}", analysis.suite.summary);
    }
    Ok(Outcome::Passed)
}

/// To stdout or `-o` (atomically), and `--json` as well.
fn write_report(analysis: &RaceAnalysis, output: &OutputPlan) -> Result<()> {
    match output.path.as_deref().filter(|p| !is_stdout(p)) {
        None => {
            let mut stdout = std::io::stdout().lock();
            let written = render(
                analysis,
                output.format,
                Style::for_stdout(output.color),
                &mut stdout,
            )
            .and_then(|()| stdout.flush());
            match written {
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                other => other.context("writing the report to stdout")?,
            }
        }
        Some(path) => {
            let style = Style {
                color: color_enabled(output.color, false),
                ..Style::plain()
            };
            let mut bytes = Vec::new();
            render(analysis, output.format, style, &mut bytes)?;
            write_to(Some(path), &bytes)?;
        }
    }
    if let Some(path) = &output.json {
        let mut bytes = Vec::new();
        render(analysis, Format::Json, Style::plain(), &mut bytes)?;
        write_to(Some(path), &bytes)?;
    }
    Ok(())
}
