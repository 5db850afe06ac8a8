//! The expensive part the end-to-end tests share: the fixture crates' dependencies (criterion and some 50
//! crates), compiled once per checkout in a seed target directory and planted into the target directories
//! the tests build in, so that each test compiles only its own small crate. Kept between test runs under
//! `target/tmp/e2e-shared/` (`CARGO_TARGET_TMPDIR`):
//!
//! - `seed/`: one `cargo bench --no-run` of the fixture crate ([`criterion_crate`]), whose own artifacts are
//!   then cleaned away: every dependency compiled for the `bench` profile. `seed/stamp` says for which
//!   toolchain, fixture manifest and `Cargo.lock` (the fixtures' lock files are this repository's,
//!   [`generate_lockfile`]); when one of them changes the seed is built again, and the slots planted again.
//! - `slot-N/`: what a test passes as `CARGO_TARGET_DIR` ([`serial`], [`shared_target`]). Its two cargo target directories get the
//!   seed's `release/` before their first use: `slot-N/` itself (a plain `cargo bench`) when the slot is
//!   taken, and the project's `speedup/<project>/target` (the revisions' builds, the working tree's among
//!   them) before `cargo speedup` runs there ([`plant_for`]); the project directories of earlier tests go
//!   when the slot is taken. The compiled dependencies are hard-linked (cargo and rustc replace such
//!   files, they never write into them, and these are never rebuilt: every fixture locks the same
//!   versions); fingerprints and build-script outputs are copied with their modification times, so that
//!   cargo takes the dependencies as fresh.
//! - Locks: `seed.lock` while the seed is checked or built, `slot-N/e2e.lock` while a test holds the slot:
//!   file locks, so that two test processes of one checkout take turns as the threads of one do
//!   (`cargo speedup` refuses a second run in a target directory whose lock is held).
//!
//! There are as many slots as tests run at once on this machine (its available parallelism, at most 4): the
//! tests that build run side by side, each in its own target directory.

use std::cell::RefCell;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, OnceLock};

use fs4::FileExt;

use super::{cargo, criterion_crate, succeed, write_criterion_crate};

/// A slot held by the test that called [`serial`]: released when dropped.
pub(crate) struct Slot {
    index: usize,
    _lock: File,
}

impl Drop for Slot {
    fn drop(&mut self) {
        HELD.with(|held| held.borrow_mut().take());
        let mut busy = BUSY.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        busy.retain(|&i| i != self.index);
        RELEASED.notify_all();
    }
}

/// The slots this process's tests hold.
static BUSY: Mutex<Vec<usize>> = Mutex::new(Vec::new());
static RELEASED: Condvar = Condvar::new();

thread_local! {
    /// The target directory of the slot this thread's test holds.
    static HELD: RefCell<Option<PathBuf>> = const { RefCell::new(None) };
}

/// The target directory of the slot the calling test holds ([`serial`]). A test that holds none and
/// builds nothing (it fails before, or needs a `CARGO_TARGET_DIR` in its environment) gets
/// `e2e-shared/unlocked/`, neither locked nor planted.
pub(crate) fn shared_target() -> PathBuf {
    HELD.with(|held| held.borrow().clone())
        .unwrap_or_else(|| root().join("unlocked"))
}

/// Takes a target directory for the calling test until the guard is dropped, [`shared_target`] then
/// being its path: waits for a free slot and plants the seed into it (building the seed first, once per
/// process, and only when it is missing or stale). Tests that build criterion crates call it first; they
/// take turns on the slots, as many at once as there are slots.
pub(crate) fn serial() -> Slot {
    let seed = seed();
    let slots = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4));
    let index = {
        let mut busy = BUSY.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        loop {
            if let Some(free) = (0..slots).find(|i| !busy.contains(i)) {
                busy.push(free);
                break free;
            }
            busy = RELEASED
                .wait(busy)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    };
    let target = root().join(format!("slot-{index}"));
    std::fs::create_dir_all(&target).expect("the slot's directory");
    let lock = locked(&target.join("e2e.lock"));
    seed.plant(&target);
    // Each test's crate is a project of its own, with its own directory under the shared `speedup/`:
    // those of earlier tests (and an earlier layout's shared files) are not read again.
    let _ = std::fs::remove_dir_all(target.join("speedup"));
    HELD.with(|held| *held.borrow_mut() = Some(target));
    Slot { index, _lock: lock }
}

/// Plants the seed into `speedup_dir/target`, the cargo target directory `cargo speedup` builds the
/// project's revisions in, when the calling test holds a slot ([`serial`]): tests that build nothing plant
/// nothing.
pub(crate) fn plant_for(speedup_dir: &Path) {
    if HELD.with(|held| held.borrow().is_some()) {
        seed().plant(&speedup_dir.join("target"));
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-shared")
}

/// `path`, created if need be and locked exclusively (blocking).
fn locked(path: &Path) -> File {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    FileExt::lock(&file).unwrap_or_else(|e| panic!("locking {}: {e}", path.display()));
    file
}

/// The seed's `release/` directory and what it was built for.
struct Seed {
    release: PathBuf,
    stamp: String,
}

fn seed() -> &'static Seed {
    static SEED: OnceLock<Seed> = OnceLock::new();
    SEED.get_or_init(build_seed)
}

/// What the seed's artifacts depend on: the toolchain, the fixture's manifest (its profile and
/// dependencies) and the lock file every fixture copies.
fn stamp() -> String {
    let rustc =
        std::process::Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
            .arg("-vV")
            .output()
            .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
            .unwrap_or_default();
    let manifest = criterion_crate(0)
        .into_iter()
        .find(|(path, _)| *path == "Cargo.toml")
        .map(|(_, text)| text)
        .unwrap_or_default();
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"))
        .expect("this repository's Cargo.lock");
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (rustc, manifest, lock).hash(&mut hasher);
    format!("{:016x}\n", hasher.finish())
}

fn build_seed() -> Seed {
    let root = root();
    std::fs::create_dir_all(&root).expect("target/tmp/e2e-shared");
    // Where these tests kept one target directory with three builds of criterion, before the seed.
    let _ = std::fs::remove_dir_all(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-target"));
    let _lock = locked(&root.join("seed.lock"));
    let target = root.join("seed");
    let seed = Seed {
        release: target.join("release"),
        stamp: stamp(),
    };
    let stamp_file = target.join("stamp");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(seed.stamp.as_str()) {
        return seed;
    }
    let fixture = root.join("seed-crate");
    let _ = std::fs::remove_dir_all(&target);
    let _ = std::fs::remove_dir_all(&fixture);
    write_criterion_crate(&fixture, 200);
    let build = |args: &[&str]| {
        let mut command = cargo();
        command
            .args(args)
            .current_dir(&fixture)
            .env("CARGO_TARGET_DIR", &target)
            .env("CARGO_NET_OFFLINE", "true");
        succeed(&mut command, &format!("the seed: cargo {args:?}"));
    };
    build(&["bench", "--no-run", "--quiet"]);
    // The fixture's own artifacts: each test builds its own crate of that name.
    build(&["clean", "--release", "--package", "demo", "--quiet"]);
    std::fs::write(&stamp_file, &seed.stamp).expect("the seed's stamp");
    seed
}

impl Seed {
    /// Gives the cargo target directory `dir` the seed's `release/` unless it has it already.
    fn plant(&self, dir: &Path) {
        let marker = dir.join("e2e-seed");
        if std::fs::read_to_string(&marker).ok().as_deref() == Some(self.stamp.as_str()) {
            return;
        }
        let release = dir.join("release");
        let _ = std::fs::remove_dir_all(&release);
        plant_tree(&self.release, &release);
        std::fs::write(&marker, &self.stamp).expect("the planted seed's stamp");
    }
}

/// Copies the tree `from` to `to`: the files of a `deps/` directory hard-linked, the others copied with
/// their modification times; cargo's lock file left out (each target directory has its own).
fn plant_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    let in_deps = from.file_name().is_some_and(|n| n == "deps");
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.expect("a seed entry");
        let (source, copy) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().expect("a seed entry's type");
        if kind.is_dir() {
            plant_tree(&source, &copy);
        } else if entry.file_name() == ".cargo-lock" {
            continue;
        } else if !(in_deps && std::fs::hard_link(&source, &copy).is_ok()) {
            std::fs::copy(&source, &copy)
                .unwrap_or_else(|e| panic!("{} -> {}: {e}", source.display(), copy.display()));
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .expect("a seed file's modification time");
            File::options()
                .write(true)
                .open(&copy)
                .and_then(|f| f.set_modified(modified))
                .unwrap_or_else(|e| panic!("{}: {e}", copy.display()));
        }
    }
}
