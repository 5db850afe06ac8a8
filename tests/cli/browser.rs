//! The HTML report as a person sees it: rendered from committed fixtures (the example suite, and a hostile
//! one with markup, quotes and a 10,000-character name in benchmark names, a single run per side and an
//! interval without bound: `fixtures/html/make.py`), opened in headless Chromium at a desktop and a phone
//! width. The page must log nothing to the console, never need a horizontal scroll bar, and every plot
//! must take its space and draw in it (non-white pixels in its box on the screenshot).
//!
//! It needs Debian's `chromium` and `chromedriver` (packages `chromium` and `chromium-driver`, which
//! `.ci/run` installs; `CHROMIUM` and `CHROMEDRIVER` name other binaries). Where they are missing the test
//! says so and passes without running. The screenshots are left in the test's temporary directory.

use std::path::{Path, PathBuf};

use crate::support::run;
use crate::webdriver::{Browser, find};

/// The widths the page is looked at: a laptop and a phone.
const WIDTHS: [u32; 2] = [1280, 390];

/// The share of a plot's box that must be drawn (not white).
const MIN_INK: f64 = 0.01;

fn render(fixture: &str, out: &Path) {
    let base = format!("fixtures/{fixture}/base.json");
    let head = format!("fixtures/{fixture}/head.json");
    let output = run(&[
        "compare",
        &base,
        &head,
        "--format",
        "html",
        "-q",
        "--fail-on",
        "none",
        "-o",
        out.to_str().expect("a UTF-8 path"),
    ]);
    // The page is what is tested, not the gate (which fails on the fixtures' slower benchmarks).
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// RGBA pixels of a PNG, with its width.
fn pixels(png_bytes: &[u8]) -> (Vec<u8>, usize) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let frame = reader.next_frame(&mut buffer).expect("a frame");
    buffer.truncate(frame.buffer_size());
    let channels = frame.color_type.samples();
    let rgba = buffer
        .chunks(channels)
        .flat_map(|p| match p.len() {
            1 | 2 => [p[0], p[0], p[0], 255],
            _ => [p[0], p[1], p[2], 255],
        })
        .collect();
    (rgba, frame.width as usize)
}

/// The share of the pixels inside `rect` (x, y, width, height in CSS pixels) that are not white.
fn ink(rgba: &[u8], width: usize, rect: [f64; 4]) -> f64 {
    let height = rgba.len() / 4 / width;
    let x0 = (rect[0].max(0.0) as usize).min(width);
    let y0 = (rect[1].max(0.0) as usize).min(height);
    let x1 = ((rect[0] + rect[2]) as usize).min(width);
    let y1 = ((rect[1] + rect[3]) as usize).min(height);
    let mut inked = 0usize;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = &rgba[(y * width + x) * 4..][..3];
            if p.iter().any(|&c| c < 240) {
                inked += 1;
            }
        }
    }
    let area = (x1.saturating_sub(x0) * y1.saturating_sub(y0)).max(1);
    inked as f64 / area as f64
}

fn tools() -> Option<(PathBuf, PathBuf)> {
    let chromium = find(
        "CHROMIUM",
        &["chromium", "chromium-browser", "/usr/bin/chromium"],
    );
    let driver = find(
        "CHROMEDRIVER",
        &[
            "chromedriver",
            "/usr/bin/chromedriver",
            "/usr/lib/chromium/chromedriver",
        ],
    );
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            eprintln!(
                "skipped: the HTML report's browser test needs chromium and chromedriver \
                 (Debian: `apt-get install chromium chromium-driver`, as .ci/run does)"
            );
            None
        }
    }
}

#[test]
fn the_html_report_renders_cleanly_in_a_browser_at_desktop_and_phone_widths() {
    let Some((chromium, driver)) = tools() else {
        return;
    };
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&shots).expect("a directory for the screenshots");
    let browser = Browser::start(&driver, &chromium).expect("headless chromium starts");
    for fixture in ["example", "html"] {
        let page = shots.join(format!("{fixture}.html"));
        render(fixture, &page);
        let url = format!("file://{}", page.display());
        for width in WIDTHS {
            let at = format!("{fixture} at {width} px");
            browser.open(&url, width).expect("the page opens");
            let console = browser.console().expect("the console");
            assert!(console.is_empty(), "{at}: the console says {console:?}");
            let overflow = browser
                .command(
                    "POST",
                    "/execute/sync",
                    Some(serde_json::json!({
                        "script": "return document.documentElement.scrollWidth - window.innerWidth",
                        "args": []
                    })),
                )
                .expect("the page's width");
            assert!(
                overflow.as_i64().unwrap_or(0) <= 0,
                "{at}: the page is {overflow} px wider than the window"
            );
            let png = browser.screenshot().expect("a screenshot");
            let file = shots.join(format!("{fixture}-{width}.png"));
            std::fs::write(&file, &png).expect("the screenshot is saved");
            eprintln!("screenshot: {}", file.display());
            let (rgba, png_width) = pixels(&png);
            let plots = browser.rects("[data-plot]", "data-plot").expect("plots");
            for kind in ["forest", "curve", "runs"] {
                assert!(plots.iter().any(|(k, _)| k == kind), "{at}: no {kind} plot");
            }
            let content = f64::from(width.min(1100)) - 40.0;
            for (kind, rect) in &plots {
                if kind != "runs" {
                    assert!(
                        rect[2] >= 0.7 * content.min(720.0),
                        "{at}: the {kind} plot is only {} px wide",
                        rect[2]
                    );
                }
                assert!(
                    rect[3] > 40.0,
                    "{at}: the {kind} plot is {} px tall",
                    rect[3]
                );
                let share = ink(&rgba, png_width, *rect);
                assert!(
                    share >= MIN_INK,
                    "{at}: the {kind} plot is blank ({share:.4})"
                );
            }
            // Every drawing itself, not only its box: the curve and at least the strips of the forest.
            for (label, rect) in browser
                .rects("[data-plot] svg", "aria-label")
                .expect("drawings")
            {
                assert!(rect[2] > 0.0 && rect[3] > 0.0, "{at}: {label} has no size");
                let share = ink(&rgba, png_width, rect);
                assert!(share > 0.0, "{at}: the drawing {label:?} is blank");
            }
        }
    }
}
