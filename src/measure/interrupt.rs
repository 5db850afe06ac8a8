//! Ctrl-C (and SIGTERM/SIGHUP) as a flag: the handler only records the request; the code waiting on a child
//! process sees it, kills the child, and returns [`super::MeasureError::Interrupted`], so that the guards
//! (worktrees, lock) are dropped and clean up. This module must not exit the process itself.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<()> = OnceLock::new();

/// Installs the handler once per process. If another handler is already installed (a host program), the
/// flag is simply never set and Ctrl-C keeps its default behaviour.
pub(super) fn install() {
    INSTALLED.get_or_init(|| {
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}

/// Whether the user asked to stop.
pub(super) fn requested() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
