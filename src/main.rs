//! `cargo-speedup`: parse arguments, run the command, map the outcome to the documented exit status
//! (0 no failure, 1 failure under `--fail-on`, 2 bad usage or unusable input).

use std::process::ExitCode;

fn main() -> ExitCode {
    pad_the_heap();
    cargo_speedup::run(std::env::args_os())
}

/// How much more than a request glibc's allocator asks of the system when a heap must grow.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TOP_PAD: libc::c_int = 32 << 20;

/// Has glibc's allocator grow its heaps 32 MiB at a time instead of 128 KiB beyond each request
/// (`M_TOP_PAD`), before any thread starts. A large comparison allocates tens of megabytes in small
/// pieces, and each growth is a system call that changes the process's mappings while the other threads
/// run: at 1000 benchmarks × 100 runs per side the command took 0.201 s of CPU and 0.135 s of wall with the
/// default and 0.193 s and 0.128 s with this (medians of 15 runs each, taken in turn; `docs/mixtures.md`
/// §7). Only address space is reserved: a page is resident once written, so the peak memory stays as it
/// was (35 MB there, 957 MB for two files of 100 MB). Setting it also fixes glibc's thresholds for `mmap`
/// and for giving memory back, which glibc would otherwise raise as large blocks are freed; measured with
/// that, as above.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn pad_the_heap() {
    // SAFETY: `mallopt` only sets a parameter of the allocator; it is called here, before any thread exists.
    // Its result (1 when the value was taken) changes nothing either way: the default then stays.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, TOP_PAD);
    }
}

/// Other allocators keep their own ways.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn pad_the_heap() {}
