//! A short page of sentences and links in the insights' shell: the `403`
//! that says the insights are private until a token is set, and the page a
//! teacher's new room opens on. Everything in it is escaped.

use axum::{http::StatusCode, response::Response};
use minijinja::context;
use serde::Serialize;

use super::shell;
use vocabulary::Lang;

/// The notices' words.
pub struct Words {
    pub private_title: &'static str,
    pub private: &'static str,
    pub private_how: &'static str,
    pub room_title: &'static str,
    /// `{room}`, `{size}`.
    pub room_ready: &'static str,
    pub room_link: &'static str,
    pub room_view: &'static str,
    pub room_back: &'static str,
}

pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::Pt => &PT,
        Lang::Zh => &ZH,
    }
}

static EN: Words = Words {
    private_title: "The insights are private",
    private: "This server shows its insights only to a browser on the server's own machine, because no JAY_INSIGHTS_TOKEN is set.",
    private_how: "To read them from anywhere, set JAY_INSIGHTS_TOKEN (8 to 256 visible characters) in the server's environment and restart it; your browser then asks for it as the password.",
    room_title: "Your class room",
    room_ready: "Room {room} is ready, with seats for {size} learners at once.",
    room_link: "Give your class this link",
    room_view: "Project the room's live view",
    room_back: "Back to the insights",
};

static PT: Words = Words {
    private_title: "Os dados de aprendizagem são privados",
    private: "Este servidor só mostra os dados a um navegador na própria máquina do servidor, porque JAY_INSIGHTS_TOKEN não está definido.",
    private_how: "Para lê-los de qualquer lugar, defina JAY_INSIGHTS_TOKEN (de 8 a 256 caracteres visíveis) no ambiente do servidor e reinicie-o; o navegador então o pede como senha.",
    room_title: "A sala da sua turma",
    room_ready: "A sala {room} está pronta, com lugar para {size} alunos ao mesmo tempo.",
    room_link: "Dê este link à sua turma",
    room_view: "Projete a visão ao vivo da sala",
    room_back: "Voltar aos dados",
};

static ZH: Words = Words {
    private_title: "学习数据不公开",
    private: "由于没有设置 JAY_INSIGHTS_TOKEN，本服务器只向服务器本机上的浏览器显示学习数据。",
    private_how: "要从任何地方查看，请在服务器的环境中设置 JAY_INSIGHTS_TOKEN（8 到 256 个可见字符）并重启；之后浏览器会把它作为密码来询问。",
    room_title: "你的班级教室",
    room_ready: "教室 {room} 已就绪，可同时容纳 {size} 名学生。",
    room_link: "把这个链接发给你的班级",
    room_view: "投影教室的实时视图",
    room_back: "返回学习数据",
};

/// A link on a notice.
#[derive(Serialize)]
pub struct Link<'a> {
    pub label: &'a str,
    pub href: &'a str,
    /// Shown as the link's text after the label (an address to copy).
    pub shown: Option<&'a str>,
}

/// A notice page.
pub struct Notice<'a> {
    pub lang: Lang,
    pub title: &'a str,
    pub heading: &'a str,
    pub lines: &'a [&'a str],
    pub stylesheet: &'a str,
}

impl Notice<'_> {
    /// The page with `status`.
    pub fn response(&self, status: StatusCode) -> Response {
        self.with_links(status, &[])
    }

    /// The page with `links` under its lines.
    pub fn with_links(&self, status: StatusCode, links: &[Link<'_>]) -> Response {
        let main = shell::render(
            "notice.html",
            context! { heading => self.heading, lines => self.lines, links => links },
        );
        let head = shell::Head {
            lang: self.lang,
            title: self.title,
            stylesheet: self.stylesheet,
            path: "/insights",
            query: &[],
            class: "insights-notice",
        };
        shell::html(
            status,
            main.and_then(|main| shell::document(&head, &main)),
            None,
        )
    }
}
