//! Why a side could not be read ([`SourceError`]), with the messages that name the path, what was expected
//! and the remedy after `hint:`. Must not: read or detect anything.

use super::limits::{self, size_text, suggested_limit};
use super::unusable;

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
