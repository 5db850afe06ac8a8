//! `cargo speedup compare BASE HEAD`: read two existing results, analyse, report, gate. Instruction counts
//! of two machines (two `record` files whose fingerprints differ in the CPU, glibc or Valgrind) are refused.

use std::io::{IsTerminal, Write};

use anyhow::{Context as _, Result, bail};

use super::{Input, Outcome, Output, check_outputs, is_stdout, write_to};
use crate::cli::{CompareArgs, Format};
use crate::model::fingerprint::CountsMismatch;
use crate::model::{BaseHead, Design, Results, Suite};
use crate::plan::{AnalysisPlan, ComparePlan, OutputPlan};
use crate::protocol::Analysis;
use crate::protocol::analyse::analyse_with_shapes;
use crate::report::{Style, color_enabled, renderer, stderr_summary, utc_minute};
use crate::sources::{self, ReadOptions};

/// `compare`: load both sides, then [`analyse_and_report`].
pub(super) fn compare(args: &CompareArgs) -> Result<Outcome> {
    // The options, then where the reports go, are checked first: a bad --json path would otherwise fail
    // after the report printed, and a report written over an input would destroy it.
    let plan = ComparePlan::from_args(args)?;
    let from_env = ReadOptions::from_env();
    let by_name = [&plan.base, &plan.head]
        .iter()
        .any(|spec| matches!(sources::locate(spec), sources::Location::BaselineName));
    let read_options = ReadOptions {
        // A baseline name is looked up where `cargo bench` writes, unless the environment says where.
        criterion_home: match from_env.criterion_home {
            None if by_name => crate::measure::criterion_home(),
            home => home,
        },
        more_homes: if by_name { package_homes() } else { Vec::new() },
        unit_override: plan.unit,
        max_input_size: args.max_input_size,
    };
    sources::check_sides(&plan.base, &plan.head)?;
    let inputs = [&plan.base, &plan.head].map(|spec| input(spec, &read_options));
    check_report_outputs(
        &plan.analysis.output,
        &inputs.into_iter().flatten().collect::<Vec<_>>(),
    )?;
    let (base, head) = load_both(&plan.base, &plan.head, &read_options)?;
    // Counts of two machines differ by the machine (`docs/json.md` §2); a file without fingerprint (gungraun,
    // BMF) is compared as it is.
    if let (Some(b), Some(h)) = (&base.environment.fingerprint, &head.environment.fingerprint)
        && let Some(refused) = CountsMismatch::between(("BASE", b), ("HEAD", h))
    {
        return Err(refused.into());
    }
    let sides = Sides {
        base,
        head,
        identical: Vec::new(),
        design: Design::READ,
    };
    analyse_and_report(sides, plan.analysis)
}

/// Where criterion writes in each bench package of the workspace when `CRITERION_HOME` or
/// `CARGO_TARGET_DIR` is a relative path (`docs/formats.md` §1.1): cargo runs a bench in its package's
/// directory, and criterion joins the path to it (`crates/app/target_foo/criterion`). Empty when neither is
/// relative: an absolute one, or `cargo metadata`'s target directory, is the same from everywhere.
fn package_homes() -> Vec<std::path::PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
    };
    let relative = match (var("CRITERION_HOME"), var("CARGO_TARGET_DIR")) {
        (Some(home), _) => home,
        (None, Some(target)) => target.join("criterion"),
        (None, None) => return Vec::new(),
    };
    if relative.is_absolute() {
        return Vec::new();
    }
    crate::measure::bench_package_dirs()
        .into_iter()
        .map(|dir| dir.join(&relative))
        .collect()
}

/// Two files together smaller than this are read at the same time, one on each core: reading is a ninth of
/// the work of a large suite and would otherwise run on one core (`docs/mixtures.md` §7). Larger ones are
/// read one after the other, so that only one file's text is held at a time (`docs/usage.md` §3).
const READ_TOGETHER_BELOW: u64 = 64 << 20;

/// Both sides' results; BASE's error first when both fail, as when they are read in turn.
fn load_both(base: &str, head: &str, options: &ReadOptions) -> Result<(Results, Results)> {
    let size = |spec: &str| match sources::locate(spec) {
        sources::Location::File(path, _) => std::fs::metadata(path).ok().map(|m| m.len()),
        _ => None,
    };
    let small =
        matches!((size(base), size(head)), (Some(b), Some(h)) if b + h < READ_TOGETHER_BELOW);
    if !small {
        return Ok((sources::load(base, options)?, sources::load(head, options)?));
    }
    let (base, head) = std::thread::scope(|scope| {
        let head = scope.spawn(|| sources::load(head, options));
        let base = sources::load(base, options);
        // A panic while reading is a bug: carried to the caller as it is.
        (
            base,
            head.join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    Ok((base?, head?))
}

/// What `spec` reads on disk: a file, or a criterion directory (a baseline name reads the criterion home).
fn input(spec: &str, read_options: &ReadOptions) -> Option<Input> {
    match sources::locate(spec) {
        sources::Location::Stdin => None,
        sources::Location::File(path, _) => Some(Input::File(path.to_path_buf())),
        sources::Location::Dir(path, _) => Some(Input::Tree(path.to_path_buf())),
        sources::Location::BaselineName => Some(Input::Tree(read_options.criterion_home())),
    }
}

/// Checks `-o`, `--json` and `--html` of a comparing command against each other and against what it reads, before
/// anything is read or run.
pub(super) fn check_report_outputs(output: &OutputPlan, inputs: &[Input]) -> Result<()> {
    if output.path.is_none() && output.json.as_deref().is_some_and(is_stdout) {
        bail!(
            "`--json -` writes to standard output, where the report already goes\n\
             hint: send the report to a file with `-o report.txt`, or print only JSON with `--format json`"
        );
    }
    if output.path.is_none() && output.html.as_deref().is_some_and(is_stdout) {
        bail!(
            "`--html -` writes to standard output, where the report already goes\n\
             hint: send the report to a file with `-o report.txt`, or print only HTML with `--format html`"
        );
    }
    let outputs = [
        ("-o", &output.path, "report.txt"),
        ("--json", &output.json, "report.json"),
        ("--html", &output.html, "report.html"),
    ]
    .into_iter()
    .filter_map(|(flag, path, example)| {
        let path = path.as_deref()?;
        Some(Output {
            flag,
            path,
            example,
        })
    })
    .collect::<Vec<_>>();
    check_outputs(&outputs, inputs)
}

/// Both sides' results as a command read or measured them, with how they were had: what
/// [`analyse_and_report`] pairs into a suite.
#[derive(Debug)]
pub(crate) struct Sides {
    /// BASE's results.
    pub base: Results,
    /// HEAD's results.
    pub head: Results,
    /// The benchmarks not run because BASE and HEAD built the same executables (none for results read).
    pub identical: Vec<String>,
    /// The looks of the plan that measured the runs, and how more can be had.
    pub design: Design,
}

/// The stages after the results of both sides exist: pair, analyse, render, gate. Shared by `compare` and
/// the revision comparison.
pub(crate) fn analyse_and_report(sides: Sides, plan: AnalysisPlan) -> Result<Outcome> {
    let Sides {
        base,
        head,
        identical,
        design,
    } = sides;
    let (base_origin, head_origin) = (base.origin.clone(), head.origin.clone());
    let origins = BaseHead {
        base: base_origin.clone(),
        head: head_origin.clone(),
    };
    let suite = Suite {
        identical,
        design,
        ..Suite::pair(base, head)
    };
    if suite.pairs.is_empty() && suite.identical.is_empty() {
        bail!(
            "no benchmark is present in both {base_origin} and {head_origin}\n{}{}",
            unmatched_names(&suite.base_only, &suite.head_only),
            left_out_lines(&suite.left_out)
        );
    }
    report_suite(&suite, origins, &plan)
}

/// Analyses a paired suite, adds each side's shape, renders it as `plan` says, and gates (`compare`, the
/// revision comparison and `merge`). `origins` label the sides in the headline's "Compared ..." line.
pub(super) fn report_suite(
    suite: &Suite,
    origins: BaseHead<String>,
    plan: &AnalysisPlan,
) -> Result<Outcome> {
    let mut analysis = analyse_with_shapes(suite, &plan.options, &plan.shapes);
    analysis.compared.origins = origins;
    analysis.compared.date = Some(report_date());
    write_report(&analysis, &plan.output)?;
    summary_on_stderr(&analysis, &plan.output);
    Ok(if analysis.gate.failed {
        Outcome::GateFailed
    } else {
        Outcome::Passed
    })
}

/// Renders to stdout, or to `--output` atomically (a temporary file renamed into place); `--json` as well.
fn write_report(analysis: &Analysis, output: &OutputPlan) -> Result<()> {
    write_rendered(output, &|format, style, out| {
        renderer(format).render(analysis, style, out)
    })
}

/// What renders a report in a format and style (the comparison's or the race's renderers).
pub(super) type RenderWith<'a> = &'a dyn Fn(Format, Style, &mut dyn Write) -> std::io::Result<()>;

/// [`write_report`] for any report: `render` in `--format` to stdout or `-o`, in JSON to `--json` and in HTML
/// to `--html`.
pub(super) fn write_rendered(output: &OutputPlan, render: RenderWith<'_>) -> Result<()> {
    match report_file(output) {
        None => {
            // Buffered: standard output is line-buffered, and a JSON report of a large suite has a line per
            // value (160,000 write calls for 1000 benchmarks, more time than the analysis).
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let style = Style {
                verbose: output.verbose,
                ..Style::for_stdout(output.color)
            };
            let written = render(output.format, style, &mut stdout).and_then(|()| stdout.flush());
            match written {
                // The reader stopped early (`| head`): it has what it wanted; the gate still decides.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                other => other.context("writing the report to stdout")?,
            }
        }
        Some(path) => {
            let style = Style {
                color: color_enabled(output.color, false),
                verbose: output.verbose,
                ..Style::plain()
            };
            let mut bytes = Vec::new();
            render(output.format, style, &mut bytes)?;
            write_to(Some(path), &bytes)?;
        }
    }
    for (path, format, what) in [
        (&output.json, Format::Json, "the JSON report"),
        (&output.html, Format::Html, "the HTML page"),
    ] {
        let Some(path) = path else { continue };
        let mut bytes = Vec::new();
        render(format, Style::plain(), &mut bytes)?;
        write_to(Some(path), &bytes)?;
        if !output.quiet && !is_stdout(path) {
            eprintln!("wrote {what} to {}", path.display());
        }
    }
    Ok(())
}

/// The file the report goes to; `None` for standard output (no `-o`, or `-o -`).
fn report_file(output: &OutputPlan) -> Option<&std::path::Path> {
    output.path.as_deref().filter(|p| !is_stdout(p))
}

/// What a CI log needs on standard error when the report goes elsewhere (a file, a pipe, a format that is
/// not the table on a terminal): the headline's first sentence (the gate's result, or what changed) and how
/// many warnings the report holds, never the warnings again (`docs/verdicts.md` §6). Nothing when the table
/// is on the terminal, which already shows it all, or under `-q`.
fn summary_on_stderr(analysis: &Analysis, output: &OutputPlan) {
    let table_on_terminal = output.format == Format::Table
        && report_file(output).is_none()
        && std::io::stdout().is_terminal();
    if output.quiet || table_on_terminal {
        return;
    }
    // Warnings and reasons quote benchmark names: written through the terminal rule, each on one line.
    let mut stderr = std::io::stderr().lock();
    for line in stderr_summary(analysis) {
        let _ = writeln!(stderr, "{line}");
    }
}

/// When the report was made: `SOURCE_DATE_EPOCH` when set (reproducible reports), else the clock; UTC.
fn report_date() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
        });
    utc_minute(seconds)
}

/// The names of each side, the first few of them, and the closest pairs across sides, for the error of two
/// sides with no benchmark in common.
/// What was left out, one line each (at most five), for the error of a comparison with nothing to compare:
/// a user whose every benchmark was left out learns why there.
fn left_out_lines(left_out: &[crate::model::coverage::LeftOut]) -> String {
    use crate::report::words::coverage;
    const SHOWN: usize = 5;
    let count = crate::report::shown(left_out.len(), SHOWN);
    let mut lines: String = left_out
        .iter()
        .take(count)
        .map(|item| {
            let (reason, quoted) = coverage::reason(item);
            let quoted = quoted.map(|q| format!(": {q}")).unwrap_or_default();
            format!(
                "\nleft out: {} `{}`{}: {reason}{quoted}",
                coverage::granularity(item.granularity),
                item.name,
                coverage::side(item)
            )
        })
        .collect();
    if left_out.len() > count {
        lines.push_str(&format!("\nand {} more left out", left_out.len() - count));
    }
    lines
}

fn unmatched_names(base: &[String], head: &[String]) -> String {
    const SHOWN: usize = 5;
    let list = |names: &[String]| {
        let count = crate::report::shown(names.len(), SHOWN);
        let shown: Vec<String> = names.iter().take(count).map(|n| format!("`{n}`")).collect();
        match names.len() {
            0 => "none".to_string(),
            n if n > count => format!("{} and {} more", shown.join(", "), n - count),
            _ => shown.join(", "),
        }
    };
    let pairs: Vec<String> = base
        .iter()
        .filter_map(|b| crate::suggest::closest(b, head.iter().map(String::as_str)).map(|h| (b, h)))
        .take(3)
        .map(|(b, h)| format!("`{b}` ~ `{h}`"))
        .collect();
    let closest = if pairs.is_empty() {
        String::new()
    } else {
        format!("; closest: {}", pairs.join(", "))
    };
    format!(
        "BASE has {} benchmark(s): {}\nHEAD has {}: {}\nhint: benchmarks are matched by exact name{closest}",
        base.len(),
        list(base),
        head.len(),
        list(head)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Side;
    use crate::model::coverage::{LeftOut, Reason};

    #[test]
    fn a_comparison_with_nothing_to_compare_says_what_was_left_out_and_why() {
        let item = |name: &str| {
            LeftOut::benchmark(
                name,
                Some(Side::Base),
                Reason::NoValue {
                    detail: "not exact".into(),
                },
            )
        };
        assert_eq!(
            left_out_lines(&[item("a (instructions)")]),
            "\nleft out: benchmark `a (instructions)` at BASE: no usable value (not exact)"
        );
        let many: Vec<LeftOut> = (0..7).map(|i| item(&format!("b{i}"))).collect();
        let text = left_out_lines(&many);
        assert_eq!(text.matches("\nleft out: ").count(), 5, "{text}");
        assert!(text.ends_with("\nand 2 more left out"), "{text}");
        assert_eq!(left_out_lines(&[]), "");
    }
}
