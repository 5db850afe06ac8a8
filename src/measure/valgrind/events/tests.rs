use super::*;
use crate::measure::valgrind::callgrind::read_dump;

/// A dump under `--cache-sim=yes` written by hand in callgrind's format: compressed names, the allocator's
/// shims as Rust 1.95 names them (`__rustc::__rust_alloc`) and one bare (`__rust_realloc`, older Rust).
/// `demo::three` calls `__rust_alloc` 3 times from two lines, the harness's loop `__rust_alloc_zeroed`
/// once and `__rust_realloc` once, the shim its implementation `__rdl_alloc` 3 times (not a call to count
/// again), and `demo::three` frees 3 times (`__rust_dealloc`, not counted).
const DUMP: &str = "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 12\npart: 4\n\
    positions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n\
    summary: 5000 900 300 7 40 11 3 20\n\n\
    fl=(1) lib.rs\nfn=(1) demo::three\n3 100 10 5\n\
    cfn=(2) __rustc::__rust_alloc\ncalls=2 40\n4 200 20 10 0 1\n\
    cfn=(2)\ncalls=1 41\n5 100 10 5\n\
    cfn=(3) __rustc::__rust_dealloc\ncalls=3 50\n6 90 9 3\n\n\
    fn=(2)\n40 30 3 1\ncfn=(4) __rustc::__rdl_alloc\ncalls=3 60\n40 270 30 9\n\n\
    fn=(5) criterion::bencher::Bencher<M>::iter\n10 50 5 2\n\
    cfn=(6) __rustc::__rust_alloc_zeroed\ncalls=1 70\n11 20 2 1\n\
    cfn=(7) __rust_realloc\ncalls=1 80\n12 20 2 1\n\
    cfn=(1)\ncalls=1 3\n13 490 49 23\n\n\
    totals: 5000 900 300 7 40 11 3 20\n";

#[test]
fn cache_misses_are_the_first_and_last_levels_added_up() {
    let dump = read_dump(DUMP).unwrap();
    let both = Extras {
        cache_sim: true,
        allocations: false,
    };
    // By hand: L1 = I1mr + D1mr + D1mw = 7 + 40 + 11; LL = ILmr + DLmr + DLmw = 3 + 20 + 0 (left out at
    // the end of the totals).
    assert_eq!(both.read(&dump, DUMP).unwrap(), [58, 23]);
    assert_eq!(both.asked(), [Extra::L1Misses, Extra::LlMisses]);
    assert_eq!(both.valgrind_args(), ["--cache-sim=yes"]);
    // A dump without the cache simulation says so.
    let plain = "events: Ir\ntotals: 5000\n";
    let error = both.read(&read_dump(plain).unwrap(), plain).unwrap_err();
    assert!(error.contains("no `I1mr` event"), "{error}");
}

#[test]
fn allocations_are_the_calls_to_the_allocator_s_shims_from_other_functions() {
    let dump = read_dump(DUMP).unwrap();
    let allocations = Extras {
        cache_sim: false,
        allocations: true,
    };
    // By hand: `__rust_alloc` 2 + 1 from `demo::three`, `__rust_alloc_zeroed` 1 and `__rust_realloc` 1 from
    // criterion's loop; the shim's 3 calls of `__rdl_alloc` and the 3 of `__rust_dealloc` are not counted.
    assert_eq!(allocations.read(&dump, DUMP).unwrap(), [5]);
    assert!(allocations.valgrind_args().is_empty());
    let all = Extras {
        cache_sim: true,
        allocations: true,
    };
    assert_eq!(all.read(&dump, DUMP).unwrap(), [58, 23, 5]);
    assert!(Extras::default().asked().is_empty());
    // A shim calling another shim counts once.
    let nested = "events: Ir\nfn=(1) f\ncfn=(2) __rust_realloc\ncalls=1 2\n1 9\n\
                  fn=(2)\ncfn=(3) __rust_alloc\ncalls=1 3\n2 5\n";
    assert_eq!(functions::calls_to(nested, is_allocator).unwrap(), 1);
    let error = functions::calls_to("events: Ir\nfn=f\ncfn=(9)\n", is_allocator).unwrap_err();
    assert!(error.contains("used before it is defined"), "{error}");
}

#[test]
fn the_allocator_s_shims_are_told_from_other_functions() {
    for name in [
        "__rust_alloc",
        "__rustc::__rust_alloc",
        "__rustc::__rust_alloc_zeroed",
        "__rust_realloc",
    ] {
        assert!(is_allocator(name), "{name}");
    }
    for name in [
        "__rustc::__rust_dealloc",
        "__rustc::__rdl_alloc",
        "malloc",
        "alloc::alloc::alloc",
        "demo::__rust_alloc_wrapper",
    ] {
        assert!(!is_allocator(name), "{name}");
    }
}

#[test]
fn each_count_is_estimated_per_iteration_like_instructions() {
    // criterion: the process's start with call 1, calls 2 to 7, the program's end; call j of 2^(j−1)
    // iterations allocates 3 per iteration and 2 of its own, misses 2 per iteration and 9 of its own (call
    // 5 misses one more: not exact).
    let per_dump: Vec<Vec<u64>> = (1..=7u32)
        .map(|j| {
            let n = 1u64 << (j - 1);
            vec![9 + 2 * n + u64::from(j == 5), 2 + 3 * n]
        })
        .chain([vec![100, 50]])
        .collect();
    let asked = [Extra::L1Misses, Extra::Allocations];
    let estimates = criterion(&asked, &per_dump);
    assert_eq!(
        estimates[1],
        (
            Extra::Allocations,
            Estimate::Exact {
                per_iteration: 3,
                estimates: 4
            }
        )
    );
    // By hand: call j misses 9 + 2·2^(j−1), call 5 42; doubling 4 is (42 − 25) / 8 = 2.125, doubling 5
    // (73 − 42) / 16 = 1.9375, doublings 3 and 6 give 2.
    assert_eq!(
        estimates[0],
        (
            Extra::L1Misses,
            Estimate::NotExact {
                low: 1.9375,
                high: 2.125
            }
        )
    );
    // divan: the start, then loop and gap per sample; 2 samples, each loop 1 + 3N.
    let process = |n: u64| -> Vec<Vec<u64>> {
        [50, 1 + 3 * n, 4, 1 + 3 * n, 60]
            .iter()
            .map(|&c| vec![c])
            .collect()
    };
    assert_eq!(
        divan(
            &[Extra::Allocations],
            2,
            (100, &process(100)),
            (200, &process(200))
        ),
        [(
            Extra::Allocations,
            Estimate::Exact {
                per_iteration: 3,
                estimates: 2
            }
        )]
    );
}

#[test]
fn each_count_has_its_own_event_and_name() {
    assert_eq!(Extra::L1Misses.event().counted.name, "L1 misses");
    assert_eq!(Extra::LlMisses.event().counted.name, "LL misses");
    assert_eq!(Extra::Allocations.event().counted.name, "allocations");
    assert_eq!(
        Extra::Allocations.event().counted.benchmark_name("three"),
        "three (allocations)"
    );
}
