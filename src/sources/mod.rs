//! Existing results on disk -> [`crate::model::Results`], one file per input format, detected from content.
//!
//! `cargo speedup compare BASE HEAD` reads each side with [`load`]. A side is one of (`docs/formats.md`,
//! `docs/usage.md` §3):
//!
//! - a file, whose format is detected from its content, never from its extension: our record JSON
//!   ([`record`]), the raw timing JSON ([`raw_json`]), hyperfine `--export-json` ([`hyperfine`]), Google
//!   Benchmark JSON ([`google_benchmark`]), cargo-criterion `--message-format=json` lines
//!   ([`cargo_criterion`]), Go benchmark text ([`go`]), divan's printed tree ([`divan`]), libtest bench
//!   text or JSON ([`libtest`]), a gungraun / iai-callgrind summary ([`gungraun`]) or Bencher Metric
//!   Format JSON ([`bmf`]); `-` reads standard input;
//! - a criterion directory ([`criterion`]): a root such as `target/criterion` (its `new` samples), or one
//!   benchmark's baseline directory such as `target/criterion/fib/before`;
//! - a criterion baseline name (`before`), looked up in the criterion home resolved as criterion does.
//!
//! A *selector* after `#` picks part of a source: `FILE#rev=main` (hyperfine: the runs whose parameter `rev`
//! is `main`, see [`hyperfine`]), `FILE#cpu_time` (Google Benchmark: CPU instead of real time),
//! `DIR#before` (criterion: baseline `before` under the root `DIR`). A path that exists as given is never
//! split at `#`.
//!
//! This module must not start benchmarks or analyse anything: it only reads, validates (through
//! [`Sample::new`](crate::model::Sample::new)) and reports non-fatal oddities as [`Results::notes`]. Foreign serde structs stay private
//! to the format's file.

pub(crate) mod bmf;
pub(crate) mod cargo_criterion;
pub(crate) mod criterion;
pub(crate) mod divan;
pub(crate) mod events;
pub(crate) mod go;
pub(crate) mod google_benchmark;
pub(crate) mod gungraun;
pub(crate) mod hyperfine;
pub(crate) mod libtest;
pub(crate) mod limits;
pub(crate) mod part;
pub(crate) mod raw_json;
pub(crate) mod record;
pub(crate) mod speeduptest_sh;

mod builder;
mod diagnose;
mod foreign;
#[cfg(test)]
mod fuzz_tests;
mod top_level;
mod unusable;

use std::path::{Path, PathBuf};

pub(crate) use builder::{Builder, ValuesFrom, invalid, parse_unit};
use limits::{LimitedReadError, size_text, suggested_limit};
use top_level::{Member, TopLevel};

use crate::model::{Results, Unit};

/// The formats [`load`] tries on a file, in order, as named in error messages.
pub(crate) const FILE_FORMATS: [&str; 11] = [
    "cargo-speedup record JSON",
    "raw timing JSON",
    "hyperfine --export-json",
    "Google Benchmark JSON",
    "cargo-criterion --message-format=json lines",
    "Go benchmark text",
    "divan output",
    "libtest bench text",
    "libtest bench JSON",
    "gungraun / iai-callgrind summary JSON",
    "Bencher Metric Format JSON",
];

/// Where to look for criterion baselines by name, and how to read what does not say its unit.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ReadOptions {
    /// The criterion home; `None`: `./target/criterion` (see [`ReadOptions::criterion_home`]).
    pub criterion_home: Option<PathBuf>,
    /// Further criterion homes a baseline name is looked for in, after [`ReadOptions::criterion_home`]: where
    /// criterion writes in each bench package of a workspace when `CRITERION_HOME` or `CARGO_TARGET_DIR` is
    /// relative (cargo runs a bench in its package's directory; `docs/formats.md` §1.1). The app fills it.
    pub more_homes: Vec<PathBuf>,
    /// The unit of criterion samples (a custom measurement such as cycles cannot be detected from the files);
    /// also overrides the unit that cargo-criterion lines declare. `None` means nanoseconds.
    pub unit_override: Option<Unit>,
    /// The size limit of one input (`--max-input-size`); `None`: [`limits::DEFAULT_MAX_INPUT_SIZE`].
    pub max_input_size: Option<u64>,
}

impl ReadOptions {
    /// The criterion home as criterion resolves it (`docs/formats.md` §1.1), but for the `cargo metadata`
    /// step, which the app adds: `$CRITERION_HOME`, else `$CARGO_TARGET_DIR/criterion`.
    pub(crate) fn from_env() -> ReadOptions {
        let home = std::env::var_os("CRITERION_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("CARGO_TARGET_DIR")
                    .filter(|v| !v.is_empty())
                    .map(|t| PathBuf::from(t).join("criterion"))
            });
        ReadOptions {
            criterion_home: home,
            more_homes: Vec::new(),
            unit_override: None,
            max_input_size: None,
        }
    }

    /// The size limit of one input: the one set, else [`limits::DEFAULT_MAX_INPUT_SIZE`]
    /// (`docs/formats.md` §11).
    pub(crate) fn max_input_size(&self) -> u64 {
        self.max_input_size
            .unwrap_or(limits::DEFAULT_MAX_INPUT_SIZE)
    }

    /// The criterion home: the one set, else `./target/criterion`. The app sets it from `cargo metadata`
    /// when a baseline name needs it (`measure::criterion_home`): this module starts no process.
    pub(crate) fn criterion_home(&self) -> PathBuf {
        self.criterion_home
            .clone()
            .unwrap_or_else(|| PathBuf::from("target").join("criterion"))
    }

    /// Every place a baseline name is looked for: [`ReadOptions::criterion_home`], then the
    /// [`ReadOptions::more_homes`], each once.
    pub(crate) fn criterion_homes(&self) -> Vec<PathBuf> {
        let mut homes = vec![self.criterion_home()];
        for home in &self.more_homes {
            let same = |h: &PathBuf| {
                h == home
                    || matches!((h.canonicalize(), home.canonicalize()), (Ok(a), Ok(b)) if a == b)
            };
            if !homes.iter().any(same) {
                homes.push(home.clone());
            }
        }
        homes
    }
}

/// Why a side could not be read. Messages name the path and what was expected; remedies follow `hint:`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SourceError {
    /// The file or directory could not be read.
    #[error("cannot read {path}: {error}")]
    Read {
        /// The path that could not be read.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The file is not valid in the format it was read as (bad JSON, a bad line).
    #[error("{path}: not valid {format}: {message}")]
    Invalid {
        /// The file read.
        path: String,
        /// The format it was read as, e.g. "raw timing JSON".
        format: &'static str,
        /// The parser's message.
        message: String,
    },
    /// The file parses but breaks a rule of its format; the hint says how to fix it.
    #[error("{path}: {problem}\nhint: {hint}")]
    Malformed {
        /// The file read.
        path: String,
        /// What is wrong.
        problem: String,
        /// How to fix it.
        hint: String,
    },
    /// A benchmark has an empty name, so it cannot be paired.
    #[error(
        "{path}: benchmark {position} (counting from 1) has an empty name\nhint: give every benchmark a name; \
         names pair the benchmarks of BASE and HEAD"
    )]
    EmptyName {
        /// The file read.
        path: String,
        /// The benchmark's position in the file, from 1.
        position: usize,
    },
    /// Two benchmarks of one side have the same name.
    #[error(
        "{path}: benchmark `{benchmark}` appears twice\nhint: give each benchmark a unique name, or compare the runs in separate files"
    )]
    Duplicate {
        /// The file read.
        path: String,
        /// The repeated name.
        benchmark: String,
    },
    /// The input names benchmarks, but every one was left out (skipped, errored, failed, below the
    /// harness's resolution, without a usable value): nothing is left to compare.
    #[error("{}", unusable::message(path, left_out))]
    NothingUsable {
        /// The file read.
        path: String,
        /// Every benchmark it names, with why it was left out.
        left_out: Vec<crate::model::coverage::LeftOut>,
    },
    /// The input holds no samples at all.
    #[error("{path}: no samples: {reason}{}", hint_line(hint))]
    NoSamples {
        /// The file or directory read.
        path: String,
        /// Why nothing was found.
        reason: String,
        /// What to do about it, when there is a remedy.
        hint: Option<String>,
    },
    /// The file matches none of the formats this tool reads.
    #[error(
        "{path}: not a results file this tool reads; tried: {}\nhint: see `cargo speedup compare --help` for the accepted inputs",
        tried.join(", ")
    )]
    Unrecognised {
        /// The file read.
        path: String,
        /// The formats tried, in order.
        tried: Vec<&'static str>,
    },
    /// The file is a comparison's analysis report, not one side's samples.
    #[error(
        "{path} is an analysis report (schema \"cargo-speedup/1\"), not one side's samples\nhint: compare the files written by `cargo speedup record`, or raw timing JSON; reports of the parts of one comparison are joined by `cargo speedup merge`"
    )]
    AnalysisReport {
        /// The file read.
        path: String,
    },
    /// The side names no file, directory or criterion baseline.
    #[error("{}", not_found(spec, places))]
    NotFound {
        /// The side as given on the command line.
        spec: String,
        /// Every criterion home searched for baselines, with the baselines found there.
        places: Vec<(String, Vec<String>)>,
    },
    /// The input is larger than the size limit (`docs/formats.md` §11).
    #[error(
        "{path}: {}more than the size limit of one input, {}\nhint: if it really holds results, raise the limit: `--max-input-size {}`",
        size.map(|s| format!("{s} bytes, ")).unwrap_or_default(),
        size_text(*limit),
        suggested_limit(*limit, *size)
    )]
    TooLarge {
        /// The file read, or `standard input`.
        path: String,
        /// Its size, when known (a regular file); a stream is read up to the limit only.
        size: Option<u64>,
        /// The limit.
        limit: u64,
    },
    /// The input holds more numbers than an input of its size limit may (`docs/formats.md` §11).
    #[error(
        "{path}: holds {} numbers, more than the {} one input may hold (one per {} bytes of the {} size limit)\nhint: if it really holds results, raise the limit: `--max-input-size {}`",
        limits::count_text(*found),
        limits::count_text(limits::max_numbers(*limit)),
        limits::BYTES_PER_NUMBER,
        size_text(*limit),
        suggested_limit(*limit, Some(found.saturating_mul(limits::BYTES_PER_NUMBER)))
    )]
    TooManyNumbers {
        /// The file read.
        path: String,
        /// How many numbers it holds.
        found: u64,
        /// The size limit the number limit follows.
        limit: u64,
    },
    /// The input is not UTF-8 text, which every format this tool reads is.
    #[error(
        "{path}: not UTF-8 text: byte {offset} (counting from 0; line {line}, column {column}) is 0x{byte:02x}, which is invalid UTF-8 there\nhint: every format this tool reads is UTF-8 text; convert the file (e.g. `iconv -f latin1 -t utf-8`) or fix the name or value at that place"
    )]
    NotUtf8 {
        /// The file read.
        path: String,
        /// The offset of the first invalid byte.
        offset: usize,
        /// Its line, from 1.
        line: usize,
        /// Its column in bytes, from 1.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// Both sides are `-`: standard input can be read once only.
    #[error(
        "BASE and HEAD are both `-`, but standard input can be read only once\nhint: save one side to a file first, e.g. `cargo speedup compare base.json -`"
    )]
    StdinTwice,
    /// A `FILE#selector` suffix is invalid for the file or selects nothing.
    #[error("{path}: {message}")]
    Selector {
        /// The file read.
        path: String,
        /// What is wrong, with a hint when there is a remedy.
        message: String,
    },
}

fn hint_line(hint: &Option<String>) -> String {
    hint.as_ref()
        .map(|h| format!("\nhint: {h}"))
        .unwrap_or_default()
}

/// The message of [`SourceError::NotFound`]: the one place looked at, or each of them with the baselines
/// it holds.
fn not_found(spec: &str, places: &[(String, Vec<String>)]) -> String {
    match places {
        [(home, baselines)] => format!(
            "`{spec}` is neither a file, a directory nor a criterion baseline in {home}{}",
            baseline_hint(baselines)
        ),
        _ => {
            let mut text = format!(
                "`{spec}` is neither a file, a directory nor a criterion baseline in any of the {} places \
                 criterion writes baselines from here:",
                places.len()
            );
            for (home, baselines) in places {
                let held = if baselines.is_empty() {
                    "no baselines".to_string()
                } else {
                    format!("baselines {}", baselines.join(", "))
                };
                text.push_str(&format!("\n  {home}: {held}"));
            }
            let all: Vec<String> = places.iter().flat_map(|(_, b)| b.clone()).collect();
            text + &baseline_hint(&all).replace("baselines found there", "baselines found")
        }
    }
}

fn baseline_hint(baselines: &[String]) -> String {
    if baselines.is_empty() {
        "\nhint: save one with `cargo bench --bench NAME -- --save-baseline BASELINE` (or `--bench '*'` \
         for every bench target), or set CRITERION_HOME"
            .into()
    } else {
        format!("\nhint: baselines found there: {}", baselines.join(", "))
    }
}

/// What a side names, told from the spec and the file system before anything is read (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Location<'a> {
    /// `-`: standard input.
    Stdin,
    /// A directory, read as criterion's; with the selector after `#`, if any.
    Dir(&'a Path, Option<&'a str>),
    /// An existing path that is not a directory; with the selector after `#`, if any.
    File(&'a Path, Option<&'a str>),
    /// No such path: a criterion baseline name, looked up in the criterion home.
    BaselineName,
}

/// Tells what `spec` names, the way [`load`] reads it.
pub(crate) fn locate(spec: &str) -> Location<'_> {
    if spec == "-" {
        return Location::Stdin;
    }
    let (path, selector) = split_selector(spec);
    if path.is_dir() {
        Location::Dir(path, selector)
    } else if path.exists() {
        Location::File(path, selector)
    } else {
        Location::BaselineName
    }
}

/// Refuses two sides that are both `-`: the first would read standard input whole, and the second would find
/// it empty.
pub(crate) fn check_sides(base: &str, head: &str) -> Result<(), SourceError> {
    match (locate(base), locate(head)) {
        (Location::Stdin, Location::Stdin) => Err(SourceError::StdinTwice),
        _ => Ok(()),
    }
}

/// Loads one side: a file, a criterion directory, or a criterion baseline name (see the module doc).
pub(crate) fn load(spec: &str, options: &ReadOptions) -> Result<Results, SourceError> {
    match locate(spec) {
        Location::Stdin => {
            let origin = "standard input";
            let bytes = limits::read_stdin(options.max_input_size())
                .map_err(|e| read_error(e, origin, options.max_input_size()))?;
            load_bytes(&bytes, origin, None, options)
        }
        Location::Dir(path, selector) => criterion::load_dir(path, selector, options),
        Location::File(path, selector) => {
            let bytes = read_file(path, options.max_input_size())?;
            load_bytes(&bytes, &path.display().to_string(), selector, options)
        }
        Location::BaselineName => load_baseline_name(spec, options),
    }
}

/// The bytes of the file at `path`, refused past the size limit `limit` (`docs/formats.md` §11).
pub(crate) fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, SourceError> {
    limits::read_file(path, limit).map_err(|e| read_error(e, &path.display().to_string(), limit))
}

fn read_error(error: LimitedReadError, path: &str, limit: u64) -> SourceError {
    match error {
        LimitedReadError::Io(error) => SourceError::Read {
            path: path.into(),
            error,
        },
        LimitedReadError::TooLarge { size } => SourceError::TooLarge {
            path: path.into(),
            size,
            limit,
        },
    }
}

/// The text of `bytes` read from `origin`: UTF-8, without a byte-order mark, holding no more numbers than an
/// input of the size limit `limit` may (`docs/formats.md` §11).
pub(crate) fn text_of<'a>(
    bytes: &'a [u8],
    origin: &str,
    limit: u64,
) -> Result<&'a str, SourceError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        let before = &bytes[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        SourceError::NotUtf8 {
            path: origin.into(),
            offset,
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: offset - line_start + 1,
            byte: bytes[offset],
        }
    })?;
    if let Some(found) = limits::excess_numbers(bytes, limit) {
        return Err(SourceError::TooManyNumbers {
            path: origin.into(),
            found,
            limit,
        });
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Splits `PATH#SELECTOR` when `PATH` exists and the whole spec does not.
fn split_selector(spec: &str) -> (&Path, Option<&str>) {
    let whole = Path::new(spec);
    if whole.exists() {
        return (whole, None);
    }
    match spec.rsplit_once('#') {
        Some((path, selector)) if Path::new(path).exists() => (Path::new(path), Some(selector)),
        _ => (whole, None),
    }
}

fn load_baseline_name(spec: &str, options: &ReadOptions) -> Result<Results, SourceError> {
    let looks_like_name = !spec.is_empty() && !spec.contains(['/', '\\', '#']);
    if !looks_like_name {
        return Err(SourceError::Read {
            path: spec.into(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"),
        });
    }
    let places: Vec<(PathBuf, Vec<String>)> = options
        .criterion_homes()
        .into_iter()
        .map(|home| {
            let baselines = criterion::baselines(&home);
            (home, baselines)
        })
        .collect();
    let holding: Vec<&PathBuf> = places
        .iter()
        .filter(|(_, baselines)| baselines.iter().any(|b| b == spec))
        .map(|(home, _)| home)
        .collect();
    match holding.as_slice() {
        [] => Err(SourceError::NotFound {
            spec: spec.into(),
            places: places
                .into_iter()
                .map(|(home, baselines)| (home.display().to_string(), baselines))
                .collect(),
        }),
        [home] => criterion::read_baseline_with(home, spec, options),
        // Each bench package of a workspace saved its own benchmarks under the name: they are one side.
        homes => {
            let parts = homes
                .iter()
                .map(|home| criterion::read_baseline_with(home, spec, options))
                .collect::<Result<Vec<_>, _>>()?;
            join_baselines(parts)
        }
    }
}

/// The results of one baseline name saved in several criterion homes, as one side: their benchmarks
/// together, a name found twice refused.
fn join_baselines(parts: Vec<Results>) -> Result<Results, SourceError> {
    let origin = parts
        .iter()
        .map(|p| p.origin.as_str())
        .collect::<Vec<_>>()
        .join(" and ");
    let mut joined = Results {
        origin,
        benchmarks: Vec::new(),
        environment: parts
            .first()
            .map(|p| p.environment.clone())
            .unwrap_or_default(),
        notes: Vec::new(),
        left_out: Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    for part in parts {
        for benchmark in part.benchmarks {
            if !seen.insert(benchmark.name.clone()) {
                return Err(SourceError::Duplicate {
                    path: joined.origin.clone(),
                    benchmark: benchmark.name,
                });
            }
            joined.benchmarks.push(benchmark);
        }
        joined.notes.extend(part.notes);
        joined.left_out.extend(part.left_out);
    }
    Ok(joined)
}

/// Reads the content of a file (or standard input) named `origin`: detects its format and parses it. Raw
/// timing JSON, the largest inputs, is parsed as such first and taken when [`detect`] would tell it so
/// (`raw_json::parse_if_raw`), so that the text is read once.
pub(crate) fn load_bytes(
    bytes: &[u8],
    origin: &str,
    selector: Option<&str>,
    options: &ReadOptions,
) -> Result<Results, SourceError> {
    let text = text_of(bytes, origin, options.max_input_size())?;
    if selector.is_none() {
        if let Some(read) = raw_json::parse_if_raw(text, origin) {
            return read;
        }
    }
    let format = detect(text).ok_or_else(|| diagnose::unreadable(text, origin))?;
    if format != InputFormat::Hyperfine && format != InputFormat::GoogleBenchmark {
        if let Some(selector) = selector {
            return Err(SourceError::Selector {
                path: origin.into(),
                message: format!(
                    "`#{selector}` selects nothing in {}\nhint: `#` picks a parameter value of a hyperfine \
                     file (`FILE#rev=main`), the time of a Google Benchmark file (`FILE#cpu_time`) or a \
                     baseline of a criterion directory (`DIR#NAME`); leave it out here",
                    format.name()
                ),
            });
        }
    }
    match format {
        InputFormat::AnalysisReport => Err(SourceError::AnalysisReport {
            path: origin.into(),
        }),
        InputFormat::Record | InputFormat::RawJson => raw_json::parse(text, origin),
        InputFormat::Hyperfine => hyperfine::parse(text, origin, selector),
        InputFormat::GoogleBenchmark => google_benchmark::parse(text, origin, selector),
        InputFormat::CargoCriterion => cargo_criterion::parse(text, origin, options.unit_override),
        InputFormat::Go => go::parse(text, origin),
        InputFormat::Divan => divan::parse(text, origin),
        InputFormat::LibtestText => libtest::parse_text(text, origin),
        InputFormat::LibtestJson => libtest::parse_json(text, origin),
        InputFormat::Gungraun => gungraun::parse(text, origin),
        InputFormat::Bmf => bmf::parse(text, origin),
    }
}

/// A file format, as told by [`detect`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputFormat {
    /// A cargo-speedup JSON analysis report (refused as a side; read by `merge`).
    AnalysisReport,
    /// A `cargo speedup record` JSON file.
    Record,
    /// Raw timing JSON: benchmark names with their samples.
    RawJson,
    /// hyperfine's `--export-json` output.
    Hyperfine,
    /// Google Benchmark's JSON output.
    GoogleBenchmark,
    /// cargo-criterion's `--message-format=json` lines.
    CargoCriterion,
    /// Go's `go test -bench` text output.
    Go,
    /// divan's printed tree (`cargo bench` of a divan target).
    Divan,
    /// libtest `#[bench]` text lines.
    LibtestText,
    /// libtest `#[bench]` JSON lines (`-Z unstable-options --format json`).
    LibtestJson,
    /// A gungraun / iai-callgrind summary (`--save-summary=json`).
    Gungraun,
    /// Bencher Metric Format JSON.
    Bmf,
}

impl InputFormat {
    /// The format's name in messages, as in [`FILE_FORMATS`].
    pub(crate) fn name(self) -> &'static str {
        match self {
            InputFormat::AnalysisReport => "a cargo-speedup analysis report",
            InputFormat::Record => FILE_FORMATS[0],
            InputFormat::RawJson => FILE_FORMATS[1],
            InputFormat::Hyperfine => FILE_FORMATS[2],
            InputFormat::GoogleBenchmark => FILE_FORMATS[3],
            InputFormat::CargoCriterion => FILE_FORMATS[4],
            InputFormat::Go => FILE_FORMATS[5],
            InputFormat::Divan => FILE_FORMATS[6],
            InputFormat::LibtestText => FILE_FORMATS[7],
            InputFormat::LibtestJson => FILE_FORMATS[8],
            InputFormat::Gungraun => FILE_FORMATS[9],
            InputFormat::Bmf => FILE_FORMATS[10],
        }
    }
}

/// Tells the format of a file from its content alone: the shape of its JSON (keys `schema`, `results`,
/// `context` + `benchmarks`, `benchmarks`, `reason`, a summary's, a libtest event's, BMF's nesting), else
/// JSON lines with `reason`, libtest bench events or BMF objects, else Go result lines, libtest bench lines
/// or a divan tree.
pub(crate) fn detect(text: &str) -> Option<InputFormat> {
    let json_like = text.trim_start().starts_with('{');
    // Only whether the text parses matters here, not why not: `parse_ok` reads a text once.
    let top = TopLevel::parse_ok(text).or_else(|| {
        json_like
            .then(|| TopLevel::parse_ok(&google_benchmark::tolerant_json(text)))
            .flatten()
    });
    match &top {
        Some(object @ TopLevel::Object(_)) => return detect_object(object, text),
        // No other format is an array at the top level: only then is the whole tree built, within the
        // size limit the text was read under.
        Some(TopLevel::Array)
            if serde_json::from_str::<serde_json::Value>(text)
                .is_ok_and(|v| gungraun::is_summary_array(&v)) =>
        {
            return Some(InputFormat::Gungraun);
        }
        _ => {}
    }
    if cargo_criterion::has_messages(text) {
        return Some(InputFormat::CargoCriterion);
    }
    if libtest::has_json(text) {
        return Some(InputFormat::LibtestJson);
    }
    if json_like && gungraun::is_summary_stream(text) {
        return Some(InputFormat::Gungraun);
    }
    if json_like && bmf::is_bmf_stream(text) {
        return Some(InputFormat::Bmf);
    }
    if go::has_results(text) {
        return Some(InputFormat::Go);
    }
    if libtest::has_text(text) {
        return Some(InputFormat::LibtestText);
    }
    if divan::has_tree(text) {
        return Some(InputFormat::Divan);
    }
    None
}

fn detect_object(object: &TopLevel, text: &str) -> Option<InputFormat> {
    match object.string("schema") {
        Some(s) if s == record::SCHEMA || s == record::SCHEMA_V1 => {
            return Some(InputFormat::Record);
        }
        Some(s) if s.starts_with("cargo-speedup/") => return Some(InputFormat::AnalysisReport),
        _ => {}
    }
    if object.string("reason").is_some() {
        return Some(InputFormat::CargoCriterion);
    }
    if object.is_array("results") {
        return Some(InputFormat::Hyperfine);
    }
    if object.is_array("benchmarks") {
        return Some(if object.has("context") {
            InputFormat::GoogleBenchmark
        } else {
            InputFormat::RawJson
        });
    }
    let members = object.object()?;
    // A gungraun summary and a libtest event tell themselves by their top-level members.
    if object.string("module_path").is_some()
        && object.is_array("profiles")
        && object.string("version").is_some()
    {
        return Some(InputFormat::Gungraun);
    }
    if object.string("type") == Some("bench") && members.get("median") == Some(&Member::Other) {
        return Some(InputFormat::LibtestJson);
    }
    // BMF is an object of objects: only such a text is parsed whole to look one level deeper.
    let all_objects = !members.is_empty() && members.values().all(|m| *m == Member::Object);
    if all_objects
        && serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(text)
            .is_ok_and(|map| bmf::is_bmf(&map))
    {
        return Some(InputFormat::Bmf);
    }
    None
}

#[cfg(test)]
mod tests;
