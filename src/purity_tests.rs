//! The rule that keeps the statistics and the decisions checkable: `src/stats/`, `src/protocol/`, the
//! simulators that replay it (`src/simulation/`) and the join of parts (`src/model/merge.rs`) do no I/O,
//! start no process, read no clock or environment, and print nothing (`docs/README.md`); randomness comes
//! in as a seed. Test code (files named `*tests.rs`, the oracle loader, and what follows `#[cfg(test)]`)
//! may read fixtures.

use std::path::Path;

/// What product code of a pure module may not name.
const FORBIDDEN: [&str; 12] = [
    "std::fs",
    "std::process",
    "std::env",
    "std::net",
    "std::io::stdin",
    "std::io::stdout",
    "std::io::stderr",
    "Instant",
    "SystemTime",
    "println!",
    "eprintln!",
    "thread::sleep",
];

/// The product part of a source file: up to its inline test module (`#[cfg(test)]` then `mod NAME {`,
/// with any visibility).
pub(crate) fn product_part(text: &str) -> &str {
    let mut at = 0;
    while let Some(i) = text[at..].find("#[cfg(test)]") {
        let start = at + i;
        let next = text[start..].lines().nth(1).unwrap_or("").trim();
        let next = next
            .strip_prefix("pub(crate) ")
            .or_else(|| next.strip_prefix("pub(super) "))
            .or_else(|| next.strip_prefix("pub "))
            .unwrap_or(next);
        if next.starts_with("mod ") && next.ends_with('{') {
            return &text[..start];
        }
        at = start + 1;
    }
    text
}

/// What product code outside `measure/` and the app may not name: only they start processes (`measure/`
/// is the only module that does, `docs/README.md`).
const PROCESSES: [&str; 3] = ["std::process", "MetadataCommand", "Command::new"];

/// The lines of the product code under `path` (a directory, recursively, or one file) that name one of
/// `forbidden`.
fn violations(path: &Path, forbidden: &[&str], found: &mut Vec<String>) {
    let entries: Vec<_> = if path.is_dir() {
        std::fs::read_dir(path)
            .expect("a source directory")
            .map(|entry| entry.expect("an entry").path())
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    for path in entries {
        if path.is_dir() {
            violations(&path, forbidden, found);
            continue;
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".rs") || name.ends_with("tests.rs") || name == "oracle.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        for (number, line) in product_part(&text).lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden.iter().filter(|w| code.contains(*w)) {
                found.push(format!("{}:{}: {word}", path.display(), number + 1));
            }
        }
    }
}

#[test]
fn statistics_and_decisions_do_no_io_and_read_no_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for module in ["stats", "protocol", "simulation", "model/merge.rs"] {
        violations(&root.join(module), &FORBIDDEN, &mut found);
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn only_measuring_starts_processes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for module in ["sources", "report", "model", "plan", "plan.rs"] {
        violations(&root.join(module), &PROCESSES, &mut found);
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_sees_what_it_forbids() {
    let text = "#[cfg(test)]\nmod oracle;\nfn f() {\n    println!(\"x\");\n}\n#[cfg(test)]\nmod tests {\n    fn g() { std::fs::read(\"a\"); }\n}\n";
    let part = product_part(text);
    assert!(part.contains("println!"));
    assert!(!part.contains("std::fs"));
}
