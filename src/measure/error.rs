//! Why measuring failed. Each message names the revision, path or command, and adds a `hint:` line when
//! there is something to do about it. All of them end the command with exit status 2.

use std::path::PathBuf;

/// A failure while building or running revisions.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    #[error(
        "`{text}` is not a revision range: {why}\nhint: write BASE..HEAD (two tips), BASE...HEAD (merge-base of both vs HEAD) or BASE (vs the working tree)"
    )]
    RevisionSyntax { text: String, why: String },

    #[error(
        "a race needs at least two revisions; {given}\nhint: name every competing revision: `cargo speedup race main feature-a feature-b`"
    )]
    RaceTooFew { given: String },

    #[error(
        "`{first}` and `{second}` name the same commit ({sha}): a race against itself measures only the machine's noise\nhint: name each commit once in `cargo speedup race`: leave out `{second}`"
    )]
    RaceRepeated {
        first: String,
        second: String,
        sha: String,
    },

    #[error(
        "`.` (the working tree) is named twice: a race against itself measures only the machine's noise\nhint: name the working tree once in `cargo speedup race`"
    )]
    RaceWorkingTreeTwice,

    #[error(
        "a race takes at most {max} revisions, {count} were given\nhint: race the most promising ones first, then race the winners"
    )]
    RaceTooMany { count: usize, max: usize },

    #[error(
        "unknown revision `{revision}`\nhint: any commit git knows works: a branch, a tag, a sha, HEAD~1 (`git log --oneline` lists them)"
    )]
    UnknownRevision { revision: String },

    #[error(
        "`{base}` and `{head}` have no common ancestor\nhint: use {base}..{head} to compare the two tips"
    )]
    NoMergeBase { base: String, head: String },

    #[error(
        "{} is not inside a git repository\nhint: comparing revisions needs git; to compare results that already exist use `cargo speedup compare`",
        path.display()
    )]
    NotGitRepository { path: PathBuf },

    #[error("`{command}` failed:\n{stderr}")]
    Git { command: String, stderr: String },

    #[error("`{command}` failed:\n{stderr}")]
    Cargo { command: String, stderr: String },

    #[error(
        "cannot align the package versions of the BASE worktree with HEAD's: {}: {stderr}\nhint: check that the manifest builds at both revisions (`cargo metadata --no-deps`)",
        path.display()
    )]
    Metadata { path: PathBuf, stderr: String },

    #[error(
        "{revision} has no {}\nhint: pass --manifest-path to the Cargo.toml of the package to measure",
        path.display()
    )]
    NoManifest { revision: String, path: PathBuf },

    #[error(
        "the manifest {} is outside the git repository {}\nhint: run from inside the repository",
        manifest.display(),
        root.display()
    )]
    ManifestOutsideRepository { manifest: PathBuf, root: PathBuf },

    #[error(
        "building {revision} failed: `{command}`\n{stderr}\nhint: the build error above is cargo's"
    )]
    Build {
        revision: String,
        command: String,
        stderr: String,
    },

    #[error(
        "{revision} has no benchmarks to run\nhint: add a criterion bench target (benches/NAME.rs with `harness = false`), or check -p/--bench"
    )]
    NoBenchmarks { revision: String },

    #[error(
        "{revision} produced no samples: no criterion benchmark saved any\nhint: check --filter, and that the bench targets use criterion (select them with --bench NAME)"
    )]
    NoSamples { revision: String },

    #[error(
        "the benchmark `{target}` of {revision} failed ({status}): `{command}`\n{stderr}\nhint: it runs as `cargo bench` would run it, with criterion's options; a bench target that is not criterion can be left out with --bench NAME"
    )]
    BenchmarkFailed {
        revision: String,
        target: String,
        command: String,
        status: String,
        stderr: String,
    },

    #[error(
        "the benchmark `{target}` of {revision} refuses the per-run criterion settings: `{command}`\n{stderr}\nhint: criterion before 0.4 takes whole seconds: pass --warm-up-time 1 --measurement-time 1 (each run then takes longer), or update the crate's criterion dev-dependency to 0.4 or later"
    )]
    OldCriterion {
        revision: String,
        target: String,
        command: String,
        stderr: String,
    },

    #[error(
        "linking the benchmark `{target}` of {revision} with shuffled sections failed: `{command}`\n{reason}\nhint: pass --layouts fixed to run the executable as built, in one layout"
    )]
    Relink {
        revision: String,
        target: String,
        command: String,
        reason: String,
    },

    #[error("interrupted: nothing was compared (worktrees and lock removed)")]
    Interrupted,

    #[error(
        "another cargo speedup run holds {} ({holder})\nhint: wait for it to finish; the lock is released when that process ends",
        path.display()
    )]
    Locked { path: PathBuf, holder: String },

    /// `error`, not `source`: as thiserror's source the reason would be printed twice (`error: {:#}` prints
    /// the chain).
    #[error("could not start `{command}`: {error}")]
    Spawn {
        command: String,
        error: std::io::Error,
    },

    /// `error`, not `source`, as in `Spawn`.
    #[error("{what}: {}: {error}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },

    #[error("could not read {}: {detail}", path.display())]
    Read { path: PathBuf, detail: String },

    #[error("invalid value {value} for {flag}: {expected}")]
    Option {
        flag: &'static str,
        value: String,
        expected: &'static str,
    },
}
