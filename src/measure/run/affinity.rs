//! Pinning each process run to one CPU core (`--pin`, `docs/replication.md` §6): the child's affinity mask
//! is set to that one core between `fork` and `exec`, so that the benchmark never migrates between cores
//! during a run, and every run of every revision uses the same core.
//!
//! Which core: the **last** one this process may use (its own affinity mask, so that a `taskset` or a
//! cgroup the user set is respected). The same core for every run and both sides, so that which core ran
//! is no difference between the sides; not chosen by load, because a load read at the start says little
//! about the minutes that follow and would pick another core in the next comparison; the last rather than
//! the first because Linux and most interrupt setups favour CPU 0 for housekeeping and device interrupts.
//!
//! Linux only (`sched_setaffinity`, through `libc`, which the tree already held through other crates;
//! there is no standard-library way to set an affinity mask). Elsewhere [`chosen`] is `None` and the
//! caller says that runs are not pinned.
//!
//! Must not: pin the tool itself, or the `--list` runs (only the measured runs), or change anything when
//! pinning is off.

use std::process::Command;

use crate::measure::progress::Progress;
use crate::report::words::measuring::Measuring;

/// The core the runs are pinned to: the last of `allowed` (the cores this process may use), `None` when
/// there is none.
pub(crate) fn choose(allowed: &[usize]) -> Option<usize> {
    allowed.iter().copied().max()
}

/// The core the runs are pinned to on this machine ([`choose`] over this process's own mask); `None` when
/// pinning is not supported here (not Linux) or the mask cannot be read.
pub(crate) fn chosen() -> Option<usize> {
    choose(&imp::allowed()?)
}

/// Makes `command`'s child run on `cpu` only, from before its `exec`: a child that cannot be pinned does
/// not start (the spawn fails with the system's reason). Not Linux: does nothing.
pub(crate) fn pin(command: &mut Command, cpu: usize) {
    imp::pin(command, cpu);
}

#[cfg(target_os = "linux")]
mod imp {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// The cores this process may run on, from `sched_getaffinity`; `None` if it fails.
    pub(super) fn allowed() -> Option<Vec<usize>> {
        // SAFETY: `cpu_set_t` is plain bits, valid when zeroed; the size passed is its own.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `set` is a valid, writable `cpu_set_t` of `size` bytes.
        if unsafe { libc::sched_getaffinity(0, size, &mut set) } != 0 {
            return None;
        }
        Some(members(&set))
    }

    /// The cores set in `set`.
    pub(super) fn members(set: &libc::cpu_set_t) -> Vec<usize> {
        // SAFETY: CPU_ISSET reads a bit of a valid set, for an index below CPU_SETSIZE.
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, set) })
            .collect()
    }

    /// The affinity mask holding `cpu` alone.
    pub(super) fn mask(cpu: usize) -> libc::cpu_set_t {
        // SAFETY: as in `allowed`; CPU_SET of an index below CPU_SETSIZE writes one bit of `set`
        // (libc's CPU_SET ignores larger ones).
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_ZERO(&mut set);
            libc::CPU_SET(cpu, &mut set);
            set
        }
    }

    pub(super) fn pin(command: &mut Command, cpu: usize) {
        let set = mask(cpu);
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: the closure runs in the child between fork and exec, where only async-signal-safe calls
        // are allowed: it makes one system call on a mask built before the fork and reads errno.
        unsafe {
            command.pre_exec(move || {
                if libc::sched_setaffinity(0, size, &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use std::process::Command;

    pub(super) fn allowed() -> Option<Vec<usize>> {
        None
    }

    pub(super) fn pin(_command: &mut Command, _cpu: usize) {}
}

/// The core every run is pinned to under `--pin` (`pin`), said once; `None` without `--pin`, or where
/// runs cannot be pinned (then a note says so).
pub(crate) fn pinned_core(pin: bool, progress: &Progress) -> Option<usize> {
    if !pin {
        return None;
    }
    let core = chosen();
    progress.note(&Measuring::Pinned { cpu: core }.words());
    core
}

/// The two cores of a duet (`--duet`, `duet`): the last two of `allowed`, in increasing order; `None`
/// when there are fewer than two.
pub(crate) fn choose_two(allowed: &[usize]) -> Option<[usize; 2]> {
    let mut cores = allowed.to_vec();
    cores.sort_unstable();
    cores.dedup();
    match cores.as_slice() {
        [.., a, b] => Some([*a, *b]),
        _ => None,
    }
}

/// The two cores a duet's runs are pinned to ([`choose_two`] over this process's own mask), said once;
/// `None` where there are fewer than two or runs cannot be pinned (then a note says the runs of a block
/// start one after another).
pub(crate) fn duet_cores(progress: &Progress) -> Option<[usize; 2]> {
    let allowed = imp::allowed();
    let cores = allowed.as_deref().and_then(choose_two);
    progress.note(
        &Measuring::Duet {
            cores,
            allowed: allowed.map(|a| a.len()),
        }
        .words(),
    );
    cores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duet_takes_the_last_two_allowed_cores_or_none() {
        assert_eq!(choose_two(&[0, 1, 2, 3]), Some([2, 3]));
        assert_eq!(choose_two(&[7, 2, 5]), Some([5, 7]));
        assert_eq!(choose_two(&[0, 1]), Some([0, 1]));
        assert_eq!(choose_two(&[3, 3]), None);
        assert_eq!(choose_two(&[4]), None);
        assert_eq!(choose_two(&[]), None);
    }

    #[test]
    fn the_last_allowed_core_is_chosen() {
        assert_eq!(choose(&[0, 1, 2, 3]), Some(3));
        assert_eq!(choose(&[5, 2, 7]), Some(7));
        assert_eq!(choose(&[0]), Some(0));
        assert_eq!(choose(&[]), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_mask_holds_the_chosen_core_alone() {
        assert_eq!(imp::members(&imp::mask(0)), vec![0]);
        assert_eq!(imp::members(&imp::mask(5)), vec![5]);
        assert_eq!(imp::members(&imp::mask(1023)), vec![1023]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_may_run_somewhere_and_the_choice_is_among_its_cores() {
        let allowed = imp::allowed().expect("sched_getaffinity works on Linux");
        assert!(!allowed.is_empty());
        let cpu = chosen().unwrap();
        assert!(allowed.contains(&cpu), "{cpu} not in {allowed:?}");
    }

    /// What the child itself reports of its mask, from the kernel's `/proc/self/status`.
    #[cfg(target_os = "linux")]
    fn child_cpus(pin_to: Option<usize>) -> String {
        let mut command = Command::new("grep");
        command.args(["^Cpus_allowed_list:", "/proc/self/status"]);
        if let Some(cpu) = pin_to {
            pin(&mut command, cpu);
        }
        let out = command.output().expect("grep runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .trim()
            .trim_start_matches("Cpus_allowed_list:")
            .trim()
            .to_string()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_pinned_child_runs_on_the_chosen_core_only() {
        let cpu = chosen().unwrap();
        assert_eq!(child_cpus(Some(cpu)), cpu.to_string());
        let first = *imp::allowed().unwrap().iter().min().unwrap();
        assert_eq!(child_cpus(Some(first)), first.to_string());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_unpinned_child_keeps_the_mask_it_inherits() {
        let allowed = imp::allowed().unwrap();
        let listed = child_cpus(None);
        if allowed.len() > 1 {
            assert_ne!(listed, allowed[allowed.len() - 1].to_string(), "{listed}");
        }
        // The kernel's list starts at the first allowed core, as a single core or a range.
        assert!(listed.starts_with(&allowed[0].to_string()), "{listed}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_core_that_cannot_be_used_stops_the_child_from_starting() {
        let mut command = Command::new("true");
        // No machine this runs on has 1024 cores online in this process's mask... unless it does.
        if imp::allowed().unwrap().contains(&1023) {
            return;
        }
        pin(&mut command, 1023);
        let error = command.status().unwrap_err();
        assert_eq!(error.raw_os_error(), Some(libc::EINVAL), "{error}");
    }
}
