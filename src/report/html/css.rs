//! The style of every HTML page of the tool (the analysis', a bisection's, a race's): inline, nothing
//! fetched.
//!
//! Must not: hold anything but the style sheet.

/// The page's style: readable on a phone (the wide table scrolls inside its box), colours by verdict that
/// also differ in lightness, and nothing fetched.
pub(crate) const CSS: &str = r#"
:root{--faster:#1a7f37;--slower:#cf222e;--unchanged:#57606a;--inconclusive:#9a6700;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--band:#ddf4ff}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
main{max-width:1100px;margin:0 auto;padding:16px;overflow-wrap:anywhere}
h1{font-size:1.1rem;margin:0 0 4px;color:var(--muted);font-weight:600}
h2{font-size:1.15rem;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.headline.v-slower strong{color:var(--slower)}.headline.v-faster strong{color:var(--faster)}
.changes{margin:4px 0 8px;padding-left:20px}.changes li.v-slower{color:var(--slower)}.changes li.v-faster{color:var(--faster)}
.compared{color:var(--muted);font-size:.9rem;margin:4px 0 8px}
.headline{font-size:1.2rem;margin:0 0 8px;padding:10px 12px;border-left:6px solid var(--unchanged);background:#f6f8fa}
.headline.v-faster{border-color:var(--faster)}.headline.v-slower{border-color:var(--slower)}.headline.v-inconclusive{border-color:var(--inconclusive)}
.lead,.caption,figcaption{color:var(--muted);font-size:.88rem;margin:4px 0 8px}
.missing{color:var(--muted);font-style:italic;background:#f6f8fa;padding:8px 10px;border-radius:6px}
th,td{overflow-wrap:anywhere}
table{border-collapse:collapse}
.forest{width:100%;table-layout:fixed}
.forest th,.forest td{padding:0 6px;border-bottom:1px solid #eef1f4;vertical-align:middle;text-align:left;font-weight:normal}
.forest thead th{position:sticky;top:0;background:#fff;z-index:1;font-weight:600;border-bottom:1px solid var(--line)}
.forest th[scope=row]{width:30%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.82rem}
.forest .strip{width:45%;padding:0}
.forest .figures{width:25%;font-size:.85rem;font-variant-numeric:tabular-nums}
.forest svg{display:block;width:100%;height:auto}
.band{fill:var(--band)}
.one{stroke:#8c959f;stroke-width:1}
.ci{stroke:currentColor;stroke-width:2}
.point{fill:currentColor;stroke:#fff;stroke-width:1}
.arrow{fill:currentColor}
.v-faster{color:var(--faster)}.v-slower{color:var(--slower)}.v-unchanged{color:var(--unchanged)}.v-inconclusive{color:var(--inconclusive)}
.v-unchanged .point,.v-inconclusive .point{fill:#fff;stroke:currentColor;stroke-width:2}
.forest th[scope=row],.results th[scope=row],.forest .figures{color:var(--ink)}
.verdict{font-weight:600}
.v-faster .verdict{color:var(--faster)}.v-slower .verdict{color:var(--slower)}.v-unchanged .verdict{color:var(--unchanged)}.v-inconclusive .verdict{color:var(--inconclusive)}
.v-slower .verdict::before{content:"▼ "}.v-faster .verdict::before{content:"▲ "}
.note{color:var(--muted)}
.tick{stroke:#8c959f}
.tick-label{font-size:11px;fill:var(--muted)}
.axis-label{font-size:12px;fill:var(--muted)}
.axis-line{stroke:#8c959f}
.grid{stroke:#eef1f4}
.side-label{font-size:11px;font-weight:600;fill:var(--ink)}
.curve svg,.runs svg{display:block;width:100%;height:auto}
.curve{margin:0;max-width:720px}
.curve .tick-label,.curve .axis-label,.curve .r-label{font-size:13px}
.curve-line{fill:none;stroke-width:2.5}
.curve-line.faster,.key.faster{stroke:var(--faster);color:var(--faster)}
.curve-line.slower,.key.slower{stroke:#0969da;color:#0969da}
.level{stroke:var(--ink);stroke-dasharray:5 4}
.r-speedup{stroke:var(--ink);stroke-width:1.5}
.r-label{font-size:12px;font-weight:600;fill:var(--ink)}
.scroll{overflow-x:auto}
.results{width:100%;font-size:.85rem;font-variant-numeric:tabular-nums}
.results th,.results td{padding:4px 8px;border-bottom:1px solid #eef1f4;text-align:left;white-space:nowrap}
.results th[scope=row]{white-space:normal;min-width:12em;max-width:28em;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:normal}
.results td.num{text-align:right}
.results .key-figure{font-weight:600}
.results .v-faster .key-figure{color:var(--faster)}.results .v-slower .key-figure{color:var(--slower)}
.results tr{color:var(--ink)}
.gate.failed strong{color:var(--slower)}
.hint{color:var(--muted)}
.figures-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:12px}
.runs{margin:0;padding:8px;border:1px solid var(--line);border-radius:8px;min-width:0}
.runs figcaption{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:var(--ink);font-size:.82rem;margin:0 0 4px}
.runs .base circle{fill:#8c959f}.runs .head circle{fill:#0969da}
.runs .spread{stroke-width:1.2}.runs .base .spread{stroke:#8c959f}.runs .head .spread{stroke:#0969da}
.runs .median{stroke:var(--ink);stroke-width:2}
.bisect th[scope=row]{width:34%;font-family:inherit;font-size:.85rem;padding:3px 6px}
.bisect th[scope=row] code{font-size:.8rem}
.bisect .index{display:inline-block;min-width:2em;color:var(--muted);font-variant-numeric:tabular-nums}
.role{font-size:.7rem;font-weight:700;padding:0 4px;border:1px solid var(--ink);border-radius:4px}
.bisect tr.unmeasured th[scope=row],.bisect tr.skipped th[scope=row]{color:var(--muted)}
.bisect tr.left{background:#fff8e5}
.bisect tr.named{background:#fff1e5;outline:2px solid var(--slower);outline-offset:-2px}
.bisect .named-label{color:var(--ink)}
.bisect details summary{cursor:pointer;color:var(--muted)}
.bisect ul.commits{margin:4px 0;padding-left:0;list-style:none;font-size:.8rem}
.terms dt{font-weight:600;margin-top:6px}.terms dd{margin:0 0 0 16px;color:var(--muted)}
.reference{fill:#fff;stroke:var(--ink);stroke-width:1.5}
.identical{fill:var(--unchanged)}
@media (max-width:640px){main{padding:10px}.headline{font-size:1.05rem}
.forest,.forest thead,.forest tbody,.forest tr,.forest th,.forest td{display:block;width:100%!important}
.forest thead th:not(.strip){display:none}
.forest tbody tr{padding:6px 0;border-bottom:1px solid #eef1f4}
.forest th,.forest td{border:0}
.forest .figures{font-size:.8rem}}
"#;
