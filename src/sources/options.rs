//! How the sides are read: where criterion baselines are looked for by name, the unit of what does not say
//! its own, the size limit of one input. Must not: read anything (`load.rs` does).

use std::path::PathBuf;

use super::limits;
use crate::model::Unit;

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
