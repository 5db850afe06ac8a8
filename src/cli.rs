//! The command line, as clap definitions only (the cargo-subcommand pattern): `cargo speedup ...` runs the
//! binary as `cargo-speedup speedup ...`. Validation into typed options happens in `plan.rs`.
//!
//! The doc comments of the options are their `--help`: a numeric one ends with `[range: ...]`
//! (`docs/options.md`) and, when clap does not print it, `[default: ...]`, in clap's own style; rustdoc
//! would read some of them as links, hence the `allow` below.
#![allow(rustdoc::broken_intra_doc_links)]

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

pub(crate) use crate::report::{ColorChoice, Format};

/// The binary as cargo invokes it.
#[derive(Debug, Parser)]
#[command(name = "cargo", bin_name = "cargo", styles = clap_cargo_styles())]
pub(crate) enum CargoCli {
    // The variant's doc is the subcommand's help, which overrides `SpeedupCli`'s: keep the two identical.
    /// Tells, with a stated confidence, whether a change made your code faster or slower.
    ///
    /// Compares two git revisions (building and running their criterion benchmarks on this machine,
    /// interleaved) or two existing results, with the Speedup-Test (mean and median protocols) per benchmark and
    /// Hierarchical Performance Testing across the suite.
    Speedup(SpeedupCli),
}

/// Tells, with a stated confidence, whether a change made your code faster or slower.
///
/// Compares two git revisions (building and running their criterion benchmarks on this machine,
/// interleaved) or two existing results, with the Speedup-Test (mean and median protocols) per benchmark and
/// Hierarchical Performance Testing across the suite.
#[derive(Debug, Args)]
#[command(
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Exit status: 0 no failure, 1 failure under --fail-on, 2 bad usage or unusable input."
)]
pub(crate) struct SpeedupCli {
    /// A subcommand; without one, the REVISIONS are built, run and compared.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Revisions to compare: BASE..HEAD (two tips), BASE...HEAD (merge-base of both vs HEAD), or BASE
    /// (vs the working tree as it is)
    #[arg(value_name = "REVISIONS")]
    pub revisions: Option<String>,

    /// What the runs measure: time, instructions (exact counts per iteration under Valgrind's
    /// callgrind, one run per revision; criterion 0.4 to 0.8 and divan 0.1 targets), or both,
    /// time,instructions (the times as asked, then one count per revision) [default: time]
    #[arg(long = "measure", value_name = "MEASURE")]
    pub measure: Option<String>,

    /// How the revisions' benchmarks are built and run.
    #[command(flatten)]
    pub run: RunArgs,

    /// How the runs are analysed and reported.
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// The subcommands of `cargo speedup`; without one it compares two revisions.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Compare two existing results (files, criterion directories or baseline names); runs nothing
    Compare(CompareArgs),
    /// Run the working tree's benchmarks and save the samples as JSON, for `compare` later
    Record(RecordArgs),
    /// The interface of the Speedup-Test paper's SpeedUpTest.sh: same config CSV, same four outputs
    Speeduptest(SpeeduptestArgs),
    /// Replay the decision plans on simulated benchmarks: their false-decision rates and runs per side
    Simulate(SimulateArgs),
    /// Race several revisions: run them interleaved, eliminate the slower ones, report the fastest
    Race(RaceArgs),
    /// Find the commit between GOOD and BAD that made the benchmarks slower (or faster), each step
    /// decided with the stated confidence
    Bisect(BisectArgs),
    /// Merge the JSON reports of the parts of one comparison (a CI matrix's jobs, `--partition`, or
    /// machines) into one report, one verdict and one gate
    Merge(MergeArgs),
    /// Remove the worktrees that killed runs left under target/speedup (every measuring run does this
    /// too when it starts); with --all, everything under target/speedup
    Clean(CleanArgs),
}

/// `cargo speedup clean`.
#[derive(Debug, Args)]
#[command(
    after_help = "Never touches target/criterion, your own worktrees or branches; refused (exit 2) while \
                  another cargo speedup run holds the lock."
)]
pub(crate) struct CleanArgs {
    /// Path to Cargo.toml [default: the one cargo finds from the current directory]
    #[arg(long = "manifest-path", value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Also remove everything else cargo speedup keeps in target/speedup: the revisions' builds, the bench
    /// executables, the runs' criterion output and the cache of results
    #[arg(long)]
    pub all: bool,
}

/// `cargo speedup merge PART.json...`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The parts: JSON reports (`--json FILE` or `--format json`) of `cargo speedup BASE..HEAD`, one per
    /// job; shards (`--partition count:K/N`) are joined, repeats on other machines analysed as more units
    #[arg(value_name = "PART", required = true, num_args = 1..)]
    pub parts: Vec<PathBuf>,

    /// Refuse a part larger than SIZE (e.g. 1GiB) [default: 256MiB]
    #[arg(long, value_name = "SIZE", value_parser = crate::sources::limits::parse_size)]
    pub max_input_size: Option<u64>,

    /// How the merged suite is analysed and reported.
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// `cargo speedup race REV1 REV2 ...`.
#[derive(Debug, Args)]
#[command(
    after_help = "A race exits 0 when it ran, 2 on bad usage; --fail-on does not apply to it, and --threshold only \
                  to counts (--measure instructions: a count more than --threshold percent above the lowest is \
                  eliminated)."
)]
pub(crate) struct RaceArgs {
    /// The competing revisions (at least two, each named once; `.` is the working tree as it is, uncommitted
    /// changes included); speedups are against the first
    #[arg(value_name = "REVISION", num_args = 0..)]
    pub revisions: Vec<String>,

    /// What the runs measure: `time`, or `instructions` (exact counts under Valgrind's callgrind, one run
    /// per revision, each benchmark's race decided at --threshold) [default: time]
    #[arg(long = "measure", value_name = "time|instructions")]
    pub measure: Option<String>,

    /// How the revisions' benchmarks are built and run.
    #[command(flatten)]
    pub run: RunArgs,

    /// How the races are analysed and reported.
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// `cargo speedup bisect GOOD BAD`.
#[derive(Debug, Args)]
#[command(
    after_help = "Searches the first-parent path from GOOD to BAD (`git rev-list --first-parent GOOD..BAD`). \
                  Exits 0 when it ran, whatever it found (also when GOOD against BAD shows no change: \
                  nothing to bisect), 2 on bad usage or when GOOD or BAD cannot be measured; --fail-on does \
                  not apply to it. docs/bisect.md tells the step rule and the confidence."
)]
pub(crate) struct BisectArgs {
    /// GOOD and BAD: `GOOD BAD` or `GOOD..BAD`; GOOD must be an ancestor of BAD
    #[arg(value_name = "REVISION", num_args = 0..)]
    pub revisions: Vec<String>,

    /// Find the commit after which the benchmarks are slower (the default)
    #[arg(long, conflicts_with = "faster")]
    pub slower: bool,

    /// Find the commit after which the benchmarks are faster
    #[arg(long)]
    pub faster: bool,

    /// Bisect each benchmark that GOOD against BAD shows changed on its own (one result per benchmark),
    /// sharing the measured commits, instead of following the suite's verdict
    #[arg(long)]
    pub each: bool,

    /// What the runs measure: time, or instructions (exact counts per iteration under Valgrind's
    /// callgrind, one run per commit, each step decided exactly) [default: time]
    #[arg(long = "measure", value_name = "time|instructions")]
    pub measure: Option<String>,

    /// How the commits' benchmarks are built and run.
    #[command(flatten)]
    pub run: RunArgs,

    /// How the steps are decided and reported (--threshold: the smallest change that counts).
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// `cargo speedup compare BASE HEAD`: two existing results, nothing run.
#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// BASE results: a results/raw JSON file, hyperfine JSON, cargo-criterion JSON lines, Go benchmark
    /// text, divan's printed output, libtest bench text or JSON, gungraun / iai-callgrind summaries, Bencher
    /// Metric Format JSON, a criterion directory, or a criterion baseline name
    pub base: String,
    /// HEAD results, in any of the forms BASE accepts
    pub head: String,

    /// Unit of criterion samples when a custom measurement was used (criterion does not record it)
    #[arg(long, value_name = "UNIT")]
    pub unit: Option<String>,

    /// Refuse an input file larger than SIZE (e.g. 1GiB) [default: 256MiB]
    #[arg(long, value_name = "SIZE", value_parser = crate::sources::limits::parse_size)]
    pub max_input_size: Option<u64>,

    /// How the two results are analysed and reported.
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// `cargo speedup record`: the working tree's runs saved as JSON.
#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// Where to write the results JSON [default: standard output]
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// What the runs measure: time, instructions (exact counts per iteration under Valgrind's
    /// callgrind, one run; compare two such records on one machine), or both, time,instructions
    /// [default: time]
    #[arg(long = "measure", value_name = "MEASURE")]
    pub measure: Option<String>,

    /// How the working tree's benchmarks are built and run.
    #[command(flatten)]
    pub run: RunArgs,

    /// Print nothing on stderr but errors
    #[arg(short, long)]
    pub quiet: bool,
}

/// `cargo speedup speeduptest CONFIG`: the Speedup-Test paper's `SpeedUpTest.sh` (paper 000 §6).
#[derive(Debug, Args)]
pub(crate) struct SpeeduptestArgs {
    /// The config CSV: Name,Sample1,Sample2,ConfLevel,Coef
    pub config: PathBuf,
    /// Confidence level of every decision (otherwise searched per benchmark, 0.99 down to 0.51) [range:
    /// 0 < C < 1]
    #[arg(long = "conf-level", value_name = "C")]
    pub conf_level: Option<f64>,
    /// Weights of the overall gain and speedup
    #[arg(long, value_enum, default_value_t = Weight::Custom)]
    pub weight: Weight,
    /// Precision r of the minimal number of benchmarks [range: 0 < R < 1]
    #[arg(long, value_name = "R", default_value_t = 0.05)]
    pub precision: f64,
    /// Output prefix of PREFIX.status, .out, .warning and .report (default: the config's file name, in the
    /// current directory: bench.cfg gives bench.cfg.out)
    #[arg(short = 'o', value_name = "PREFIX")]
    pub output: Option<PathBuf>,
}

/// `cargo speedup simulate`: the decision plans replayed on simulated benchmarks.
#[derive(Debug, Args)]
pub(crate) struct SimulateArgs {
    /// Simulated benchmarks per setting [range: 1 <= N <= 100000000]
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub benchmarks: u64,
    /// Seed of the simulation (setting k uses SEED + k) [range: 0 <= N <= 18446744073709551615]
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Confidence level 1 - alpha of the project's plans (the paper's plans use its own alphas) [range: 0.5
    /// <= C < 1]
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0.95,
        allow_negative_numbers = true
    )]
    pub confidence: f64,
    /// ε of the project's plans: "unchanged" means within ±PCT percent [range: 0 < PCT < 100] [default:
    /// 2, with --versions 3 or more θ]
    #[arg(long, value_name = "PCT", allow_negative_numbers = true)]
    pub equivalence: Option<f64>,
    /// Versions per problem: 2 replays BASE against HEAD at each --change; 3 or more races that many
    /// versions per problem, most clearly worse (paper 002's setting is 17), and counts the picks worse
    /// than the true best by θ or more [range: 2 <= R <= 1000]
    #[arg(long, value_name = "R", default_value_t = 2)]
    pub versions: u64,
    /// θ of a failed pick with --versions 3 or more: the pick's true time is θ percent or more above the
    /// best's (paper 002's 0.5) [range: 0 < PCT < 100]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 0.5,
        allow_negative_numbers = true
    )]
    pub theta: f64,
    /// Runs per side (per version) before the project's race looks first [range: 2 <= N <= 10000]
    /// [default: 6 at confidence 0.95, or with --versions 3 or more the fewest with which a version can
    /// lose at the first look]
    #[arg(long, value_name = "N")]
    pub runs: Option<u32>,
    /// The project's race's cap on runs per side (per version) [range: --runs <= N <= 10000] [default: 4
    /// x --runs]
    #[arg(long, value_name = "N")]
    pub max_runs: Option<u32>,
    /// True changes of HEAD's time, in percent, one setting each (negative: HEAD faster), with --versions 2
    /// [range: -100 < PCT <= 1000, at most 100 values]
    #[arg(
        long,
        value_name = "PCT,...",
        value_delimiter = ',',
        default_values_t = [0.0, 2.0, 5.0],
        allow_negative_numbers = true
    )]
    pub change: Vec<f64>,
    /// Noise between processes: standard deviation of log run levels, in percent [range: 0 <= PCT <= 100]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 1.0,
        allow_negative_numbers = true
    )]
    pub process: f64,
    /// Noise within a process: standard deviation of the log samples of a run (10 per run, the run's value
    /// their median), in percent [range: 0 <= PCT <= 100]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 1.0,
        allow_negative_numbers = true
    )]
    pub within: f64,
    /// Noise between layouts (one per run): standard deviation of log levels, in percent [range: 0 <= PCT
    /// <= 100]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = 0.5,
        allow_negative_numbers = true
    )]
    pub layout: f64,
    /// Resample the process runs of this record file (or any results file) instead of the model: each
    /// simulated benchmark draws its runs with replacement from one recorded benchmark's, HEAD scaled by
    /// the change
    #[arg(long, value_name = "FILE", conflicts_with_all = ["process", "within", "layout"])]
    pub record: Option<PathBuf>,
    /// Replay bisections instead: a path of N commits after GOOD with one slowdown of each --change at a
    /// commit drawn uniformly, searched as `cargo speedup bisect` searches it (--benchmarks bisections per
    /// setting) [range: 2 <= N <= 100000]
    #[arg(long, value_name = "N")]
    pub bisect: Option<u64>,
    /// What to print
    #[arg(long, value_enum, default_value_t = SimulateFormat::Table)]
    pub format: SimulateFormat,
}

/// What `simulate` prints (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SimulateFormat {
    /// Tables, for people
    Table,
    /// JSON, for scripts
    Json,
}

/// Weights of the overall gain and speedup (paper 000 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Weight {
    /// Coef column of the config, normalised (equal when no Coef is given)
    Custom,
    /// 1/b each
    Equal,
    /// Each benchmark's share of BASE's total time
    Fraction,
}

/// Options of every comparing command.
#[derive(Debug, Clone, Args)]
pub(crate) struct AnalysisArgs {
    /// Confidence level 1 - alpha of every decision, and r of the r-speedup [range: 0.5 <= C < 1]
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0.95,
        allow_negative_numbers = true,
        value_parser = confidence_number
    )]
    pub confidence: f64,

    /// What to print
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Write the report there instead of stdout
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Also write the JSON report to FILE, whatever --format is (e.g. Markdown for people, JSON for scripts)
    #[arg(long = "json", value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Also write the HTML report (one self-contained page with plots) to FILE, whatever --format is
    #[arg(long = "html", value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Exit 1 when any benchmark is confirmed slower by more than --threshold after Holm's correction
    /// (any), or when HPT finds the suite slower (suite)
    #[arg(long = "fail-on", value_enum, default_value_t = FailOnArg::Any)]
    pub fail_on: FailOnArg,

    /// A regression smaller than PCT percent is not a failure [range: 0 <= PCT <= 1000]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = crate::protocol::gate::DEFAULT_THRESHOLD_PCT,
        allow_negative_numbers = true
    )]
    pub threshold: f64,

    /// A bench target or benchmark that BASE measured and HEAD could not (a build or a process that failed)
    /// does not fail the gate; it is still reported as not compared
    #[arg(long = "allow-broken")]
    pub allow_broken: bool,

    /// Decide each benchmark on its runs paired by block: the signed-rank test and interval of the log
    /// ratios of the two runs of each block (pays for runs of a second or more; needs this tool's blocks)
    #[arg(long)]
    pub paired: bool,

    /// A benchmark is unchanged only when its runs show it within ±PCT percent (else it is inconclusive)
    /// [range: 0 < PCT < 100]
    #[arg(
        long,
        value_name = "PCT",
        default_value_t = crate::protocol::equivalence::DEFAULT_MARGIN_PCT,
        allow_negative_numbers = true
    )]
    pub equivalence: f64,

    /// Risk of the per-benchmark rank-sum tests inside HPT [range: 0 < A <= 0.5] [default: 0.05 with >= 5
    /// samples per side, else 0.10]
    #[arg(long = "hpt-alpha", value_name = "A", allow_negative_numbers = true)]
    pub hpt_alpha: Option<f64>,

    /// What HPT ranks across benchmarks: log speedups (log-ratio), or differences of median times
    /// (difference, as the PARSEC toolkit)
    #[arg(long = "hpt-rank", value_name = "RULE", value_enum, default_value_t = HptRankArg::LogRatio)]
    pub hpt_rank: HptRankArg,

    /// Also report HPT's confidence that HEAD is more than G times faster than BASE [range: 0 < G <= 1000]
    #[arg(
        long = "speedup-under-test",
        value_name = "G",
        allow_negative_numbers = true
    )]
    pub speedup_under_test: Option<f64>,

    /// When to use colours (NO_COLOR is respected under auto)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Show every warning and the suite's secondary figures (HPT's full sentence, geometric mean, overall
    /// speedups, proportions) under the table; by default only the warnings that change the conclusion
    #[arg(short, long)]
    pub verbose: bool,

    /// Also report the Gaussian-mixture cross-checks: parametric E|BASE - HEAD| and P[HEAD faster], and each
    /// side's goodness of fit (KSfit, 200 seeded bootstrap refits per side; slow)
    #[arg(long = "mixture-fit")]
    pub mixture_fit: bool,

    /// Print nothing on stderr but errors
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of the commands that build and run benchmarks. `Default` is every option left out, as on a
/// command line that names none.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct RunArgs {
    /// Path to Cargo.toml [default: the one cargo finds from the current directory]
    #[arg(long = "manifest-path", value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Package whose benchmarks to run [default: as cargo bench chooses]
    #[arg(short = 'p', long = "package", value_name = "SPEC")]
    pub package: Option<String>,
    /// Only this bench target (repeatable) [default: every bench target]
    #[arg(long = "bench", value_name = "NAME")]
    pub bench: Vec<String>,
    /// Features to activate, as cargo takes them [default: the package's default features]
    #[arg(long = "features", value_name = "FEATURES")]
    pub features: Option<String>,
    /// Activate every feature of the selected packages, as cargo takes it (not with --features)
    #[arg(long = "all-features", conflicts_with = "features")]
    pub all_features: bool,
    /// criterion's benchmark filter [default: every benchmark]
    #[arg(long = "filter", value_name = "PATTERN")]
    pub filter: Option<String>,
    /// Run only the K-th of N parts of the benchmarks (nextest's `count:K/N` or `hash:K/N`), one per job of
    /// a CI matrix; `cargo speedup merge` joins the parts' reports [range: 1 <= K <= N <= 1000] [default:
    /// every benchmark]
    #[arg(long = "partition", value_name = "count:K/N")]
    pub partition: Option<String>,
    /// Process runs per revision before the first look (with --fixed: all of them), in randomized
    /// interleaved blocks; each run is one observation [range: 2 <= N <= 10000] [default: 6 at confidence
    /// 0.95, 7 at 0.99; 10 with --fixed and for record]
    #[arg(
        long = "runs",
        visible_alias = "rounds",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub runs: Option<i64>,
    /// Most process runs per revision: benchmarks still undecided at the looks (after --runs, then each
    /// time the runs double) run until here, then they are inconclusive [range: --runs <= N <= 10000]
    /// [default: 4 x --runs, at most 10000]
    #[arg(long = "max-runs", value_name = "N", allow_negative_numbers = true)]
    pub max_runs: Option<i64>,
    /// Run every benchmark --runs times and decide once, instead of running each until it is decided
    #[arg(long = "fixed", conflicts_with = "max_runs")]
    pub fixed: bool,
    /// Time for the whole comparison, builds included (e.g. 90s, 10m, 1h): no look is started that would
    /// not end in time, and what is still undecided is inconclusive [range: 1s <= DURATION <= 168h (7
    /// days)] [default: no limit]
    #[arg(long = "budget", value_name = "DURATION")]
    pub budget: Option<String>,
    /// Seed of the blocks' random order (printed on every run, so that an order can be repeated)
    /// [range: 0 <= N <= 18446744073709551615] [default: drawn at random]
    #[arg(long = "seed", value_name = "N")]
    pub seed: Option<u64>,
    /// criterion --warm-up-time of each run, in seconds (divan: the part of --max-time beyond --min-time)
    /// [range: 0.001 <= SECS <= 3600] [default: 0.1; divan 0.02]
    #[arg(
        long = "warm-up-time",
        value_name = "SECS",
        allow_negative_numbers = true
    )]
    pub warm_up_time: Option<f64>,
    /// criterion --measurement-time of each run, in seconds (divan: --min-time) [range: 0.001 <= SECS <=
    /// 3600] [default: 0.2; divan 0.05]
    #[arg(
        long = "measurement-time",
        value_name = "SECS",
        allow_negative_numbers = true
    )]
    pub measurement_time: Option<f64>,
    /// criterion --sample-size of each run [range: 10 <= N <= 10000] [default: 10]
    #[arg(long = "sample-size", value_name = "N", allow_negative_numbers = true)]
    pub sample_size: Option<i64>,
    /// Link each bench executable in N section orders (lld --shuffle-sections) and spread the runs over
    /// them, never more layouts than runs; `fixed`: only the executable as built [range: 1 <= N <= 999]
    /// [default: one layout per run, up to 20]
    #[arg(
        long = "layouts",
        value_name = "N|fixed",
        allow_negative_numbers = true
    )]
    pub layouts: Option<String>,
    /// Run again even when cached results exist
    #[arg(long)]
    pub rerun: bool,
    /// Run the benchmarks even when BASE and HEAD build identical executables (which are otherwise
    /// reported unchanged without running): what differs then is this machine's noise, an A/A test
    #[arg(long = "run-identical")]
    pub run_identical: bool,
    /// Keep the bench files' own `measurement_time`, `warm_up_time` and `sample_size` calls, which
    /// criterion lets override --warm-up-time, --measurement-time and --sample-size [default: rewritten
    /// to these in cargo speedup's own copies of the revisions, never in your files]
    #[arg(long = "keep-bench-settings")]
    pub keep_bench_settings: bool,
    /// Keep each process run's harness output (criterion's directories, divan's and libtest's text) under
    /// target/speedup/runs/ after the comparison, to look at [default: removed once read]
    #[arg(long = "keep-runs")]
    pub keep_runs: bool,
    /// With --measure instructions: copy each benchmark's callgrind files to DIR, one directory per
    /// revision and benchmark, for callgrind_annotate or KCachegrind; DIR must not exist or be empty, and
    /// the revisions are measured again rather than read from the cache [default: removed once read]
    #[arg(long = "keep-profiles", value_name = "DIR")]
    pub keep_profiles: Option<PathBuf>,
    /// With --measure instructions: simulate the caches under callgrind (--cache-sim=yes) and compare each
    /// benchmark's L1 and last-level misses per iteration too, exactly; each instruction then costs
    /// Valgrind several times the time [default: off]
    #[arg(long = "cache-sim")]
    pub cache_sim: bool,
    /// With --measure instructions: compare each benchmark's calls to the Rust allocator per iteration too
    /// (__rust_alloc, __rust_alloc_zeroed, __rust_realloc), exactly [default: off]
    #[arg(long = "count-allocations")]
    pub count_allocations: bool,
    /// Pin each process run to one CPU core (the last this process may use), the same for every run of
    /// every revision; Linux only (elsewhere a note says runs are not pinned)
    #[arg(long = "pin", overrides_with = "no_pin")]
    pub pin: bool,
    /// Let each process run use every core this process may use (the default)
    #[arg(long = "no-pin", overrides_with = "pin")]
    pub no_pin: bool,
    /// Start the runs of each block together, BASE's and HEAD's side by side, each pinned to a core of its
    /// own (the last two this process may use; --pin has no effect then), so that what the machine does
    /// meanwhile falls on both; Linux with two cores or more (elsewhere a note says they start one after
    /// another)
    #[arg(long)]
    pub duet: bool,
    /// Run every bench target as this harness: criterion, divan or libtest (nightly) [default: detected
    /// per target from its source (`criterion_main!`, `divan::main()`, `#[bench]`) and its package's
    /// dependencies]
    #[arg(long, value_enum, value_name = "HARNESS", hide_possible_values = true)]
    pub harness: Option<HarnessArg>,
    /// Build and run the revisions with this rustup toolchain, e.g. nightly for libtest `#[bench]` (as
    /// `cargo +NAME speedup` does) [default: the toolchain running cargo speedup]
    #[arg(long, value_name = "NAME")]
    pub toolchain: Option<String>,
}

/// `--harness`: the bench harness every bench target is run as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HarnessArg {
    /// criterion: its saved samples per run
    Criterion,
    /// divan: its printed median per run
    Divan,
    /// libtest `#[bench]` (nightly): its ns/iter per run
    Libtest,
}

/// `--fail-on`: when the comparison exits 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FailOnArg {
    /// Never fail
    None,
    /// Fail when HPT finds the suite slower
    Suite,
    /// Fail when any benchmark is significantly slower, after Holm's correction
    Any,
}

/// `--hpt-rank`: what HPT ranks across benchmarks (`docs/hpt.md` §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HptRankArg {
    /// |ln(median BASE / median HEAD)|: log speedups, free of each benchmark's unit and length
    LogRatio,
    /// |median BASE − median HEAD|: differences of times; the longest benchmarks weigh most
    Difference,
}

fn clap_cargo_styles() -> clap::builder::Styles {
    use clap::builder::styling::{AnsiColor, Effects, Styles};
    Styles::styled()
        .header(AnsiColor::Green.on_default().effects(Effects::BOLD))
        .usage(AnsiColor::Green.on_default().effects(Effects::BOLD))
        .literal(AnsiColor::Cyan.on_default().effects(Effects::BOLD))
        .placeholder(AnsiColor::Cyan.on_default())
}

/// `--confidence` as a number, its range said when it is not one (the range itself is checked in `plan.rs`).
fn confidence_number(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| {
        "not a number; expected a confidence level from 0.5 up to (not including) 1, e.g. 0.95"
            .to_string()
    })
}

/// The subcommands' names as clap knows them, for the error of a misspelt or misplaced one.
fn subcommands() -> Vec<String> {
    CargoCli::command()
        .find_subcommand("speedup")
        .map(|speedup| {
            speedup
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .filter(|name| name != "help")
                .collect()
        })
        .unwrap_or_default()
}

/// Why `args` (after `speedup`) failed to parse when a subcommand is misspelt (`compar a b`) or comes after
/// options (`--confidence 2 compare a b`), or when words follow `--` as `cargo bench -- PATTERN` takes
/// criterion's filter, with the command line that works.
fn subcommand_mistake(args: &[String]) -> Option<String> {
    if let Some(dash) = args.iter().position(|a| a == "--") {
        let (before, after) = (&args[..dash], &args[dash + 1..]);
        let why = "nothing after `--` goes to the benchmarks";
        return match after {
            [] => None,
            [pattern] => Some(format!(
                "{why}: to run only those that match a pattern, give it to `--filter`: `cargo speedup {}`",
                [before, &["--filter".to_string(), shell_word(pattern)]]
                    .concat()
                    .join(" ")
            )),
            _ => Some(format!(
                "{why}: to run only those that match a pattern, give it to `--filter PATTERN`"
            )),
        };
    }
    let takes_value = |flag: &str| {
        let command = CargoCli::command();
        let speedup = command.find_subcommand("speedup")?;
        let long = flag.strip_prefix("--")?;
        speedup
            .get_arguments()
            .find(|a| a.get_long() == Some(long))
            .map(|a| a.get_action().takes_values())
    };
    let mut position = 0;
    while position < args.len() {
        let arg = &args[position];
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        let skip_value = !arg.contains('=') && takes_value(arg).unwrap_or(false);
        position += if skip_value { 2 } else { 1 };
    }
    let word = args.get(position)?;
    let (options, rest) = (&args[..position], &args[position + 1..]);
    let others = [options, rest].concat().join(" ");
    let names = subcommands();
    if names.contains(word) && !options.is_empty() {
        return Some(format!(
            "`{word}` must come before the options: `cargo speedup {word} {}`",
            others
        ));
    }
    let guess = crate::suggest::closest(word, names.iter().map(String::as_str))?;
    (!rest.is_empty()).then(|| {
        format!(
            "`{word}` is neither a subcommand nor a revision range; did you mean `{guess}`? \
             `cargo speedup {guess} {}`",
            others
        )
    })
}

/// `word` as a shell reads it back: as it is when it holds only letters, digits and `_-./:=,+`, else in
/// single quotes (a quote inside written `'\''`).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Parses `args` (the first is the program name). `cargo-speedup compare ...` (run directly, without
/// cargo) is accepted as well as `cargo-speedup speedup compare ...` (what cargo runs).
pub(crate) fn parse_from<I, T>(args: I) -> SpeedupCli
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString>,
{
    let mut args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if args.get(1).is_none_or(|a| a != "speedup") {
        args.insert(1.min(args.len()), "speedup".into());
    }
    let CargoCli::Speedup(cli) = CargoCli::try_parse_from(&args).unwrap_or_else(|error| {
        let words: Vec<String> = args[2..]
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        match subcommand_mistake(&words) {
            Some(message) => {
                let mut command = CargoCli::command();
                command.build();
                match command.find_subcommand_mut("speedup") {
                    Some(speedup) => {
                        speedup.error(clap::error::ErrorKind::InvalidSubcommand, message)
                    }
                    None => command.error(clap::error::ErrorKind::InvalidSubcommand, message),
                }
                .exit()
            }
            None => error.exit(),
        }
    });
    cli
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn help_gives_the_default_of_every_running_option() {
        let mut command = CargoCli::command();
        command.build();
        let speedup = command.find_subcommand("speedup").expect("speedup");
        let run_ids: Vec<String> = RunArgs::augment_args(clap::Command::new("run"))
            .get_arguments()
            .map(|a| a.get_id().to_string())
            .collect();
        for arg in speedup
            .get_arguments()
            .filter(|a| run_ids.contains(&a.get_id().to_string()))
        {
            if !arg.get_action().takes_values() {
                continue;
            }
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            assert!(
                help.contains("[default:") || !arg.get_default_values().is_empty(),
                "--{} says no default: {help}",
                arg.get_long().unwrap_or_default()
            );
        }
    }

    #[test]
    fn a_misspelt_or_misplaced_subcommand_gets_the_command_line_that_works() {
        assert_eq!(
            subcommand_mistake(&words("compar a.json b.json")).as_deref(),
            Some(
                "`compar` is neither a subcommand nor a revision range; did you mean `compare`? \
                 `cargo speedup compare a.json b.json`"
            )
        );
        assert_eq!(
            subcommand_mistake(&words("--confidence 0.99 compare a b")).as_deref(),
            Some(
                "`compare` must come before the options: `cargo speedup compare --confidence 0.99 a b`"
            )
        );
        assert_eq!(subcommand_mistake(&words("main..feature extra")), None);
    }

    #[test]
    fn words_after_a_double_dash_are_pointed_to_the_filter() {
        assert_eq!(
            subcommand_mistake(&words("HEAD -- buffer")).as_deref(),
            Some(
                "nothing after `--` goes to the benchmarks: to run only those that match a pattern, give it \
                 to `--filter`: `cargo speedup HEAD --filter buffer`"
            )
        );
        let quoted = vec![
            "main..feature".to_string(),
            "--".to_string(),
            "^(a|b)/it's".to_string(),
        ];
        assert_eq!(
            subcommand_mistake(&quoted).as_deref(),
            Some(
                "nothing after `--` goes to the benchmarks: to run only those that match a pattern, give it \
                 to `--filter`: `cargo speedup main..feature --filter '^(a|b)/it'\\''s'`"
            )
        );
        assert_eq!(
            subcommand_mistake(&words("-- a --bench")).as_deref(),
            Some(
                "nothing after `--` goes to the benchmarks: to run only those that match a pattern, give it \
                 to `--filter PATTERN`"
            )
        );
    }

    #[test]
    fn clap_definitions_are_consistent() {
        CargoCli::command().debug_assert();
    }

    #[test]
    fn accepts_cargo_and_direct_invocation() {
        let via_cargo = parse_from(["cargo-speedup", "speedup", "compare", "a", "b"]);
        let direct = parse_from(["cargo-speedup", "compare", "a", "b"]);
        for cli in [via_cargo, direct] {
            match cli.command {
                Some(Command::Compare(c)) => {
                    assert_eq!((c.base.as_str(), c.head.as_str()), ("a", "b"))
                }
                other => panic!("expected compare, got {other:?}"),
            }
        }
    }

    #[test]
    fn a_race_takes_its_revisions_in_order() {
        let cli = parse_from(["cargo-speedup", "race", "main", "a", "b", "--runs", "6"]);
        match cli.command {
            Some(Command::Race(r)) => {
                assert_eq!(r.revisions, ["main", "a", "b"]);
                assert_eq!(r.run.runs, Some(6));
            }
            other => panic!("expected race, got {other:?}"),
        }
    }

    #[test]
    fn revision_range_is_positional() {
        let cli = parse_from([
            "cargo-speedup",
            "speedup",
            "main..feature",
            "--confidence",
            "0.99",
        ]);
        assert_eq!(cli.revisions.as_deref(), Some("main..feature"));
        assert_eq!(cli.analysis.confidence, 0.99);
        assert!(cli.command.is_none());
    }
}
