//! Why measuring failed. Each message names the revision, path or command, and adds a `hint:` line when
//! there is something to do about it. All of them end the command with exit status 2.

use std::path::{Path, PathBuf};

/// A failure while building or running revisions.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MeasureError {
    /// The command line's revision argument is not BASE, BASE..HEAD or BASE...HEAD.
    #[error(
        "`{text}` is not a revision range: {why}\nhint: write BASE..HEAD (two tips), BASE...HEAD (merge-base of both vs HEAD) or BASE (vs the working tree)"
    )]
    RevisionSyntax {
        /// The argument as given.
        text: String,
        /// What is wrong with it.
        why: String,
    },

    /// `race` was given fewer than two revisions.
    #[error(
        "a race needs at least two revisions; {given}\nhint: name every competing revision: `cargo speedup race main feature-a feature-b`"
    )]
    RaceTooFew {
        /// What was given, in words ("only `main` was given").
        given: String,
    },

    /// Two revisions of a race name the same commit.
    #[error(
        "`{first}` and `{second}` name the same commit ({sha}): a race against itself measures only the machine's noise\nhint: name each commit once in `cargo speedup race`: leave out `{second}`"
    )]
    RaceRepeated {
        /// The first name given for the commit.
        first: String,
        /// The second name given for it, the one to leave out.
        second: String,
        /// The commit both name.
        sha: String,
    },

    /// A race names the working tree (`.`) twice.
    #[error(
        "`.` (the working tree) is named twice: a race against itself measures only the machine's noise\nhint: name the working tree once in `cargo speedup race`"
    )]
    RaceWorkingTreeTwice,

    /// A race was given more revisions than it can take.
    #[error(
        "a race takes at most {max} revisions, {count} were given\nhint: race the most promising ones first, then race the winners"
    )]
    RaceTooMany {
        /// How many revisions were given.
        count: usize,
        /// The most a race takes.
        max: usize,
    },

    /// git does not know a revision.
    #[error(
        "unknown revision `{revision}`\nhint: any commit git knows works: a branch, a tag, a sha, HEAD~1 (`git log --oneline` lists them)"
    )]
    UnknownRevision {
        /// The revision as given.
        revision: String,
    },

    /// The repository has no commit at all, so no revision can be resolved.
    #[error(
        "the git repository {} has no commits yet: there is no `{revision}` to compare\nhint: commit first \
         (`git add -A && git commit`); then `cargo speedup HEAD` compares that commit with the working tree",
        root.display()
    )]
    NoCommits {
        /// The repository's top-level directory.
        root: PathBuf,
        /// The revision as given.
        revision: String,
    },

    /// git does not know a revision, in a shallow clone: it may be older than the history fetched, or on a
    /// branch not fetched.
    #[error(
        "unknown revision `{revision}` in a shallow clone: {} holds only the last commits of its history, \
         so `{revision}` may exist but was not fetched\nhint: `git fetch --unshallow` fetches the whole \
         history (a branch of the remote also needs `git fetch origin BRANCH`); in GitHub Actions, give \
         actions/checkout `fetch-depth: 0`",
        root.display()
    )]
    ShallowRevision {
        /// The revision as given.
        revision: String,
        /// The repository's top-level directory.
        root: PathBuf,
    },

    /// BASE...HEAD in a shallow clone whose history holds no merge-base of the two.
    #[error(
        "`{base}` and `{head}` have no common ancestor in the commits fetched: {} is a shallow clone, and \
         their merge-base may be older\nhint: `git fetch --unshallow` fetches the whole history; in GitHub \
         Actions, give actions/checkout `fetch-depth: 0`",
        root.display()
    )]
    ShallowMergeBase {
        /// BASE as given.
        base: String,
        /// HEAD as given.
        head: String,
        /// The repository's top-level directory.
        root: PathBuf,
    },

    /// BASE...HEAD was asked for, but BASE and HEAD have no merge-base.
    #[error(
        "`{base}` and `{head}` have no common ancestor\nhint: use {base}..{head} to compare the two tips"
    )]
    NoMergeBase {
        /// BASE as given.
        base: String,
        /// HEAD as given.
        head: String,
    },

    /// The current directory is not inside a git repository.
    #[error(
        "{} is not inside a git repository\nhint: comparing revisions needs git; to compare results that already exist use `cargo speedup compare`",
        path.display()
    )]
    NotGitRepository {
        /// The directory searched from.
        path: PathBuf,
    },

    /// A git command failed.
    #[error("`{command}` failed:\n{stderr}")]
    Git {
        /// The git command run.
        command: String,
        /// git's standard error.
        stderr: String,
    },

    /// A cargo command other than a build failed (`cargo metadata` finding the target directory).
    #[error("`{command}` failed:\n{stderr}")]
    Cargo {
        /// The cargo command run.
        command: String,
        /// cargo's standard error, or the parser's message.
        stderr: String,
    },

    /// `cargo metadata` failed on the BASE worktree, or its output could not be read.
    #[error(
        "cannot align the package versions of the BASE worktree with HEAD's: {}: {stderr}\nhint: check that the manifest builds at both revisions (`cargo metadata --no-deps`)",
        path.display()
    )]
    Metadata {
        /// The manifest `cargo metadata` was run on.
        path: PathBuf,
        /// cargo's standard error, or the parser's message.
        stderr: String,
    },

    /// A revision has no manifest at the path measured.
    #[error(
        "{revision} has no {}\nhint: pass --manifest-path to the Cargo.toml of the package to measure",
        path.display()
    )]
    NoManifest {
        /// The revision's label.
        revision: String,
        /// The manifest path that does not exist at that revision.
        path: PathBuf,
    },

    /// The manifest measured is not inside the git repository.
    #[error(
        "the manifest {} is outside the git repository {}\nhint: run from inside the repository",
        manifest.display(),
        root.display()
    )]
    ManifestOutsideRepository {
        /// The manifest measured.
        manifest: PathBuf,
        /// The repository's root.
        root: PathBuf,
    },

    /// Building a revision's benchmarks failed.
    #[error(
        "building {revision} failed: `{command}`\n{stderr}\nhint: the build error above is cargo's"
    )]
    Build {
        /// The revision's label.
        revision: String,
        /// The cargo command run.
        command: String,
        /// cargo's standard error.
        stderr: String,
    },

    /// A revision has no bench target to run.
    #[error(
        "{revision} has no benchmarks to run\nhint: add a criterion bench target (benches/NAME.rs with `harness = false`), or check -p/--bench"
    )]
    NoBenchmarks {
        /// The revision's label.
        revision: String,
    },

    /// A revision's benchmarks ran but none saved or printed a value.
    #[error(
        "{revision} produced no samples: no benchmark saved or printed any\nhint: check --filter, and that the bench targets use criterion, divan or libtest (select them with --bench NAME)"
    )]
    NoSamples {
        /// The revision's label.
        revision: String,
    },

    /// A bench executable exited with an error.
    #[error(
        "the benchmark `{target}` of {revision} failed ({status}): `{command}`\n{stderr}\nhint: it runs as `cargo bench` would run it, with the run options of its harness (criterion, divan or libtest); a benchmark that fails can be left out with --filter PATTERN (a pattern that does not match it), a bench target that is none of these with --bench NAME, and a custom harness's values compared with `cargo speedup compare` as raw JSON"
    )]
    BenchmarkFailed {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// The command run.
        command: String,
        /// How it exited (an exit code or a signal).
        status: String,
        /// Its standard error.
        stderr: String,
    },

    /// A bench target whose harness is none that cargo speedup runs.
    #[error(
        "the bench target `{target}` of {revision} uses no harness cargo speedup knows ({found}): expected criterion (`criterion_main!`), divan (`divan::main()`) or libtest `#[bench]`\nhint: leave it out with --bench NAME (one per target to measure), force a harness with --harness criterion|divan|libtest, or, for a custom harness, write its values as raw JSON and compare them with `cargo speedup compare`"
    )]
    UnknownHarness {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// What was found instead.
        found: String,
    },

    /// A bench executable ran but printed nothing its harness's reader understands.
    #[error(
        "the benchmark `{target}` of {revision} ran (`{command}`) but its output is not {harness}'s: {detail}\nhint: a {harness} bench target prints its results on standard output; check that it runs under `cargo bench`, leave it out with --bench NAME, force another harness with --harness, or, for a custom harness, write its values as raw JSON and compare them with `cargo speedup compare`"
    )]
    HarnessOutput {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// The harness it was run as.
        harness: &'static str,
        /// The command run.
        command: String,
        /// What is wrong with the output.
        detail: String,
    },

    /// A libtest `#[bench]` target needs a nightly toolchain and the build's is not one.
    #[error(
        "{revision}: the bench file `{file}` uses libtest `#[bench]` (`#![feature(test)]`), which builds on a nightly toolchain only, and this one is not nightly\nhint: install nightly (`rustup toolchain install nightly`) and run with `--toolchain nightly` (or `cargo +nightly speedup ...`), or pin it for the crate with a `rust-toolchain.toml` file (`[toolchain]` `channel = \"nightly\"`); or leave the target out with --bench NAME; a custom harness's values can be compared as raw JSON with `cargo speedup compare`"
    )]
    NeedsNightly {
        /// The revision's label.
        revision: String,
        /// The bench file, as cargo's error names it.
        file: String,
    },

    /// A bench target's criterion (before 0.4) refuses fractional warm-up or measurement times.
    #[error(
        "the benchmark `{target}` of {revision} refuses the per-run criterion settings: `{command}`\n{stderr}\nhint: criterion before 0.4 takes whole seconds: pass --warm-up-time 1 --measurement-time 1 (each run then takes longer), or update the crate's criterion dev-dependency to 0.4 or later"
    )]
    OldCriterion {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// The command run.
        command: String,
        /// Its standard error.
        stderr: String,
    },

    /// `--measure instructions` and Valgrind does not start (`docs/instruction-counts.md`).
    #[error(
        "--measure instructions counts instructions under Valgrind's callgrind, and `valgrind --version` did not run: {detail}\nhint: install Valgrind (Debian, Ubuntu: `apt-get install valgrind`), or leave out --measure to compare times"
    )]
    ValgrindMissing {
        /// Why it did not run.
        detail: String,
    },

    /// `--measure instructions` on a bench target whose harness has no boundary the method can dump at
    /// (`docs/instruction-counts.md` §2): libtest `#[bench]`, criterion before 0.4.
    #[error(
        "the benchmarks of `{target}` of {revision} ({harness}) cannot be counted exactly: {why}\nhint: --measure instructions drives criterion 0.4 to 0.8 and divan 0.1; compare this target's times without --measure, or leave it out with --bench"
    )]
    NotCountable {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// Its harness, as `--harness` names it.
        harness: &'static str,
        /// Why, in words.
        why: String,
    },

    /// Relinking a bench executable with shuffled sections (`--layouts`) failed.
    #[error(
        "linking the benchmark `{target}` of {revision} with shuffled sections failed: `{command}`\n{reason}\nhint: pass --layouts fixed to run the executable as built, in one layout"
    )]
    Relink {
        /// The revision's label.
        revision: String,
        /// The bench target's name.
        target: String,
        /// The linker command run.
        command: String,
        /// Why it failed: the linker's message.
        reason: String,
    },

    /// The user interrupted the run (Ctrl-C); the worktrees and the lock were cleaned up.
    #[error("interrupted: nothing was compared (worktrees and lock removed)")]
    Interrupted,

    /// Another `cargo speedup` run holds the lock of the target directory.
    #[error(
        "another cargo speedup run holds {} ({holder})\nhint: wait for it to finish; the lock is released when that process ends",
        path.display()
    )]
    Locked {
        /// The lock file.
        path: PathBuf,
        /// Who holds it, as its lock file says: process id, start time and command line.
        holder: String,
    },

    /// `error`, not `source`: as thiserror's source the reason would be printed twice (`error: {:#}` prints
    /// the chain).
    #[error("could not start `{command}`: {error}")]
    Spawn {
        /// The command that could not be started.
        command: String,
        /// The operating system's error.
        error: std::io::Error,
    },

    /// `error`, not `source`, as in `Spawn`.
    #[error("{what}: {}: {error}", path.display())]
    Io {
        /// What was being done, e.g. "taking the lock".
        what: &'static str,
        /// The path it was done on.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },

    /// A side's criterion results could not be read after the runs.
    #[error("could not read {}: {detail}", path.display())]
    Read {
        /// The criterion directory read.
        path: PathBuf,
        /// Why it could not be read.
        detail: String,
    },

    /// A flag's value is invalid for this run (e.g. more `--partition` parts than benchmarks).
    #[error("invalid value {value} for {flag}: {expected}")]
    Option {
        /// The flag, e.g. `--budget`.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What it must be instead.
        expected: &'static str,
    },
}

impl MeasureError {
    /// The failure of doing `what` on `path`, for `map_err` on the operating system's error.
    pub(crate) fn io(
        what: &'static str,
        path: &Path,
    ) -> impl FnOnce(std::io::Error) -> MeasureError + use<> {
        let path = path.to_path_buf();
        move |error| MeasureError::Io { what, path, error }
    }
}
