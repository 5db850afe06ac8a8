//! `cargo speedup HEAD~1..HEAD --measure instructions --cache-sim --count-allocations` on a criterion crate
//! (unoptimised, x86_64) whose benchmark `allocs` makes three `Vec::with_capacity` allocations per
//! iteration at BASE and four at HEAD, and whose benchmark `stride` reads one byte of each 64-byte line of
//! 256 KiB, more than any first-level data cache: the allocations per iteration are exactly as planted and
//! compared exactly, the first-level misses of `stride` are a count of their own, at least one per line
//! read, and the counts of zero (the allocations of the benchmarks that allocate nothing) are named in a
//! note, not compared. Skipped, saying why, where `valgrind` is not on the `PATH` or the machine is not
//! x86_64.

use crate::counted::*;
use crate::support::*;

/// The lines of 64 bytes `stride` reads per iteration: 256 KiB of them.
const LINES: u64 = 256 * 1024 / 64;

/// The benchmarks `allocs` (three allocations per iteration, four when `planted`) and `stride`.
fn more(planted: bool) -> String {
    let fourth = match planted {
        true => {
            "\n            let d: Vec<u16> = Vec::with_capacity(black_box(8));\n            black_box(&d);"
        }
        false => "",
    };
    format!(
        r#"
    c.bench_function("allocs", |b| {{
        b.iter(|| {{
            let a: Vec<u8> = Vec::with_capacity(black_box(16));
            let v: Vec<u64> = Vec::with_capacity(black_box(32));
            let w: Vec<u32> = Vec::with_capacity(black_box(64));{fourth}
            black_box((a, v, w))
        }})
    }});
    let data = vec![1u8; {LINES} * 64];
    c.bench_function("stride", |b| {{
        b.iter(|| {{
            let (mut sum, mut i) = (0u64, 0);
            while i < data.len() {{
                sum = sum.wrapping_add(u64::from(data[i]));
                i += 64;
            }}
            black_box(sum)
        }})
    }});"#
    )
}

#[test]
fn allocations_are_counted_exactly_as_planted_and_cache_misses_beside_them() {
    let Some((_serial, repo)) =
        planted_repository(|dir, planted| write_criterion_counted(dir, planted, &more(planted)))
    else {
        return;
    };
    let dir = repo.path();
    let target = shared_target();
    let args = [
        "HEAD~1..HEAD",
        "--measure",
        "instructions",
        "--cache-sim",
        "--count-allocations",
        "--format",
        "json",
        "--threshold",
        "0",
    ];
    let report = json_report(dir, &target, &args, 1);

    // Three allocations per iteration at BASE, four at HEAD: exactly, and slower.
    let allocs = benchmark(&report, "allocs (allocations)");
    assert_eq!(
        (
            allocs["base"]["median"].as_f64(),
            allocs["head"]["median"].as_f64()
        ),
        (Some(3.0), Some(4.0)),
        "{allocs}"
    );
    assert_eq!(allocs["verdict"], "slower", "{allocs}");
    // Instructions are still compared beside them.
    assert_eq!(
        benchmark(&report, "changed (instructions)")["verdict"],
        "slower"
    );

    // `stride` misses the first level at least once per line it reads, the same on both sides.
    let stride = benchmark(&report, "stride (L1 misses)");
    let misses = stride["base"]["median"].as_f64().expect("BASE's misses");
    assert!(
        (LINES as f64..LINES as f64 + 64.0).contains(&misses),
        "{misses} L1 misses per iteration, {LINES} lines read"
    );
    assert_eq!(stride["verdict"], "unchanged", "{stride}");
    assert_eq!(stride["head"]["median"].as_f64(), Some(misses), "{stride}");

    // The benchmarks that allocate nothing per iteration have no ratio to compare: named, not compared.
    let all = report.to_string();
    assert!(all.contains("same (allocations)"), "{all}");
    assert!(
        report["benchmarks"]
            .as_array()
            .expect("benchmarks")
            .iter()
            .all(|b| b["name"] != "same (allocations)"),
        "{all}"
    );
    for setting in ["cache-sim", "count-allocations"] {
        assert_eq!(
            report["fingerprint"]["settings"][setting], "yes",
            "{setting}"
        );
    }
}
