//! `cargo speedup race REV1 REV2 ...`: measure the revisions together, eliminating the slower ones
//! between looks, then report the race; with `--measure instructions`, count each revision's benchmarks
//! once under Valgrind and decide each benchmark's race exactly (`docs/racing.md` §6.3).

use anyhow::Result;

use super::compare::{check_report_outputs, write_rendered};
use super::{Outcome, is_stdout, manifest};
use crate::cli::RaceArgs;
use crate::measure;
use crate::model::{Design, Results};
use crate::plan::{RacePlan, measuring};
use crate::protocol::race::{RaceOptions, open_in_race, race};
use crate::report::race::render;

/// `race`: check the options, measure, analyse, render. A race that ran exits 0: it has no gate.
pub(super) fn race_revisions(args: &RaceArgs) -> Result<Outcome> {
    let RacePlan {
        analysis: plan,
        run,
    } = RacePlan::from_args(&args.run, &args.analysis)?;
    crate::plan::refuse_paired(&args.analysis, "race")?;
    // Counts (`--measure instructions`): one run per revision, each benchmark decided exactly.
    let run = measuring(run, args.measure.as_deref(), &args.run)?;
    refuse_both(run.measure)?;
    refuse_dashboard_formats(plan.output.format, "race")?;
    check_report_outputs(&plan.output, &[manifest(&args.run)])?;
    let options = |looks| RaceOptions::new(&plan.options, Design::measured(looks));
    let decide = |so_far: &[Results], looks: u32| open_in_race(so_far, &options(looks));
    let measured = measure::measure_race(
        &args.revisions,
        &run,
        &decide,
        &format!("race {}", RaceOptions::stopping_rule(&plan.options)),
    )?;
    let analysis = race(
        &measured.results,
        &measured.labels,
        &options(measured.looks),
    );
    write_rendered(&plan.output, &|format, style, out| {
        render(&analysis, format, style, out)
    })?;
    if !plan.output.quiet && plan.output.path.as_deref().is_some_and(|p| !is_stdout(p)) {
        eprintln!(
            "{}",
            crate::inert::terminal(&crate::report::race::summary(&analysis))
        );
    }
    Ok(Outcome::Passed)
}

/// `--measure time,instructions` in a race: refused. A race decides each benchmark on one basis, tested
/// times or exact counts (`docs/racing.md` §6.3); race the revisions once for each.
fn refuse_both(measure: crate::measure::Measure) -> Result<(), crate::plan::UsageError> {
    match measure {
        crate::measure::Measure::TimeAndInstructions => Err(crate::plan::PlanError {
            flag: "--measure",
            value: measure.name().into(),
            expected: "`time` or `instructions` for `race`: a race decides each benchmark on one basis, \
                       tested times or exact counts",
            hint: "race the revisions once with `--measure time` and once with `--measure instructions`",
        }
        .into()),
        _ => Ok(()),
    }
}

/// `--format bmf` and `--format gab` hold HEAD's values of one comparison of two sides; a race has several
/// revisions and no HEAD, and a bisection a path of commits: `command` names the one refusing them.
pub(super) fn refuse_dashboard_formats(
    format: crate::report::Format,
    command: &'static str,
) -> Result<(), crate::plan::UsageError> {
    use crate::report::Format;
    match format {
        Format::Bmf | Format::Gab => Err(crate::plan::PlanError {
            flag: "--format",
            value: if format == Format::Bmf { "bmf" } else { "gab" }.into(),
            expected: if command == "race" {
                "table, json, markdown, csv or html for `race`"
            } else {
                "table, json, markdown, csv or html for `bisect`"
            },
            hint: "BMF and github-action-benchmark JSON hold the values of one HEAD: compare two revisions \
                   with `cargo speedup BASE..HEAD --format bmf`",
        }
        .into()),
        _ => Ok(()),
    }
}
