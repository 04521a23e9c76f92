//! The visit, for the insights (the server side is
//! `insights` and `POST /insights/events`).
//!
//! A tiny script in the page's `<head>` ([`SCRIPT`], with the render's CSP
//! nonce) makes the visit's id on every page load: 128 bits from
//! `crypto.getRandomValues`, base64url, kept only on `window.__jayVisit`
//! (no cookie, no storage). It reports the visit's start once with
//! `navigator.sendBeacon`: the language (`<html lang>`), the layout and the
//! lesson (from the path: `/embed` and `/two/embed` are embeds, `/two` and
//! `/two/embed` lesson 2), the viewport's width, and `?room=CODE`. `window.__jayTool(name)`
//! queues a tool's use; the queue is sent every 5 s and when the page is
//! hidden or left (then with `"left": true`, which frees the visit's seat in
//! a class room). A visitor whose browser says Do Not Track or Global
//! Privacy Control gets no id and sends nothing (the server also drops
//! requests with `DNT: 1` / `Sec-GPC: 1`). No script, or no endpoint:
//! nothing breaks, the page just records nothing.
//!
//! A tool's use is noted by one capturing listener in the same script: the
//! nearest of the tools' elements ([`TOOLS`]: a class or a test id each page
//! panel already has) names it, so neither the WASM nor the markup carries
//! anything for it. The comment request sends `window.__jayVisit`
//! (`coach_bubble::request`; lesson 2's bundle, `page-two`, the same).
//! Lesson 2's page loads this script too (it does not hydrate): its panels
//! carry the same classes, or their own in [`TOOLS`].

/// Each tool's element, as the script finds it (`closest`, in this order:
/// the lab's own inputs count as the lab), and its code
/// ([`insights::Tool`]). The script spells the same list; a test
/// keeps them equal, and the server's page tests check each is on the page.
pub const TOOLS: [(&str, &str); 10] = [
    (".descent-lab", "descent_lab"),
    (".two-lab", "descent_lab"),
    (".landscape", "map"),
    (".two-map", "map"),
    (".best-response", "best_response"),
    (".best-bias", "best_response"),
    (".param-nudges", "nudge"),
    (".param-number", "typed_value"),
    (".languages", "language_switch"),
    ("[data-testid=copy-best]", "shared_link"),
];

/// The head script (no `&`, `<` or `>`: safe as text and as markup).
pub const SCRIPT: &str = concat!(
    r#"(function(){try{var w=window,n=navigator,d=document,l=location,q=[],u="/insights/events";"#,
    r#"if(n.doNotTrack=="1"||n.globalPrivacyControl||!n.sendBeacon)return;"#,
    r#"var b=new Uint8Array(16);crypto.getRandomValues(b);"#,
    r#"var v=w.__jayVisit=btoa(String.fromCharCode.apply(null,b)).replace(/\+/g,"-").replace(/\//g,"_").replace(/=+$/,"");"#,
    r#"var s=function(o){o.visit=v;try{n.sendBeacon(u,JSON.stringify(o))}catch(e){}},"#,
    r#"f=function(l){if(q.length||l==="left"){var o={tools:q.splice(0,64)};if(l==="left")o.left=true;s(o)}},"#,
    r#"p=new URLSearchParams(l.search),r=p.get("room"),"#,
    r#"o={lang:(d.documentElement.lang||"en").split("-")[0],layout:/^(\/two)?\/embed/.test(l.pathname)?"embed":"page",width:w.innerWidth||1};"#,
    r#"if(/^\/two(\/|$)/.test(l.pathname))o.lesson=2;"#,
    r#"if(/^[A-Za-z0-9-]{1,24}$/.test(r||""))o.room=r;s(o);"#,
    r#"if(p.has("w")||p.has("w1"))q.push("shared_link");"#,
    r#"w.__jayTool=function(t){q.push(t);if(q.length==64)f()};"#,
    // A tool is noted where it is used, by one listener for the whole page:
    // the nearest of [`TOOLS`]'s elements names it (the WASM carries no code
    // and no markup for it). The map counts a press or a moving key; the
    // others a button's or a link's click, or a committed value (`change`).
    r#"var T=[[".descent-lab","descent_lab"],[".two-lab","descent_lab"],[".landscape","map"],[".two-map","map"],[".best-response","best_response"],[".best-bias","best_response"],[".param-nudges","nudge"],[".param-number","typed_value"],[".languages","language_switch"],["[data-testid=copy-best]","shared_link"]];"#,
    r#"var h=function(e){var x=e.target,n,y=e.type;if(!x.closest)return;"#,
    r#"T.some(function(t){return x.closest(t[0])?(n=t[1]):0});if(!n)return;"#,
    r#"if(n=="map"?(y=="pointerdown"||(y=="keydown"?/^(Arrow|Page|Home|End)/.test(e.key):false)):(y=="change"||(y=="click"?!!x.closest("button,a"):false)))w.__jayTool(n)};"#,
    r#"["click","change","pointerdown","keydown"].forEach(function(y){d.addEventListener(y,h,true)});"#,
    r#"setInterval(f,5000);addEventListener("pagehide",function(){f("left")});"#,
    r#"addEventListener("visibilitychange",function(){if(d.visibilityState=="hidden")f()})"#,
    r#"}catch(e){}})()"#,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_is_safe_inline_and_reports_to_the_endpoint() {
        assert!(!SCRIPT.contains(['<', '>', '&']));
        assert!(SCRIPT.contains("crypto.getRandomValues"));
        assert!(SCRIPT.contains("__jayVisit") && SCRIPT.contains("__jayTool"));
        assert!(SCRIPT.contains("\"/insights/events\""));
        assert!(SCRIPT.contains("pagehide") && SCRIPT.contains("visibilitychange"));
        assert!(!SCRIPT.contains("cookie") && !SCRIPT.contains("Storage"));
        let table: Vec<String> = TOOLS
            .iter()
            .map(|(selector, code)| format!(r#"["{selector}","{code}"]"#))
            .collect();
        assert!(SCRIPT.contains(&format!("var T=[{}];", table.join(","))));
    }

    #[test]
    fn every_tool_has_its_element() {
        for tool in insights::Tool::ALL {
            assert!(
                TOOLS.iter().any(|(_, code)| *code == tool.code()),
                "{}",
                tool.code()
            );
        }
    }
}
