//! The insights' variables, the URL's redaction and its TLS warning.

use super::*;

fn read(vars: &[(&str, &str)]) -> Result<InsightsConfig, InsightsConfigError> {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    InsightsConfig::from_vars(
        |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
        Path::new("/srv/jay data"),
    )
}

#[test]
fn defaults_record_into_a_sqlite_file_in_the_data_dir_for_90_days() {
    let c = read(&[]).expect("defaults");
    assert!(c.enabled);
    assert_eq!(c.keep_days, 90);
    assert_eq!(c.database.backend(), Backend::Sqlite);
    let opts = SqliteConnectOptions::from_str(c.database.expose()).expect("a sqlite URL");
    assert_eq!(
        opts.get_filename(),
        Path::new("/srv/jay data/insights.db"),
        "the space survives the URL"
    );
}

#[test]
fn each_variable_is_read_and_a_bad_one_is_named() {
    let c = read(&[
        ("JAY_INSIGHTS", "OFF"),
        ("JAY_INSIGHTS_DAYS", " 30 "),
        (
            "JAY_DATABASE_URL",
            "postgres://jay:s3cret@db.example:5432/jay",
        ),
    ])
    .expect("valid");
    assert!(!c.enabled);
    assert_eq!(c.keep_days, 30);
    assert_eq!(c.database.backend(), Backend::Postgres);
    let shown = format!("{} {:?} {c:?}", c.database, c.database);
    assert!(!shown.contains("s3cret"), "{shown}");
    assert!(shown.contains("db.example"), "{shown}");

    for (name, value, says) in [
        ("JAY_INSIGHTS", "maybe", "JAY_INSIGHTS must be on or off"),
        (
            "JAY_INSIGHTS_DAYS",
            "0",
            "JAY_INSIGHTS_DAYS must be a whole number of days",
        ),
        ("JAY_INSIGHTS_DAYS", "ninety", "JAY_INSIGHTS_DAYS must be"),
        ("JAY_INSIGHTS_DAYS", "3651", "from 1 to 3650"),
    ] {
        let e = read(&[(name, value)]).expect_err(value).to_string();
        assert!(e.contains(says), "{name}={value}: {e}");
    }
}

#[test]
fn a_bad_database_url_stops_start_up_without_showing_its_password() {
    for url in [
        "mysql://jay:s3cret@db.example/jay",
        "postgres://jay:s3cret@db.example:notaport/jay",
        "postgres://jay:s3cret@/jay",
        "s3cret",
        "sqlite:/tmp/x.db?mode=s3cret",
    ] {
        let e = read(&[("JAY_DATABASE_URL", url)])
            .expect_err(url)
            .to_string();
        assert!(e.starts_with("JAY_DATABASE_URL "), "{e}");
        assert!(
            !e.contains("s3cret") || url.starts_with("sqlite"),
            "{url}: {e}"
        );
    }
    assert!(read(&[("JAY_DATABASE_URL", "sqlite:/tmp/x.db?mode=rwc")]).is_ok());
    assert!(read(&[("JAY_DATABASE_URL", "postgresql://localhost/jay")]).is_ok());
    let managed = "postgres://jay:s3cret@db.example/jay?sslmode=require";
    assert!(read(&[("JAY_DATABASE_URL", managed)]).is_ok());
}

#[test]
fn a_password_in_the_query_is_not_shown_either() {
    for url in [
        "postgres://jay@db.example/jay?password=s3cret",
        "postgres://jay@db.example/jay?sslmode=verify-full&PASSWORD=s3cret&sslpassword=s3cret",
    ] {
        let c = read(&[("JAY_DATABASE_URL", url)]).expect(url);
        let shown = format!(
            "{} {:?} {:?}",
            c.database,
            c.database,
            c.database.tls_warning()
        );
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(
            shown.contains("db.example") && shown.contains("***"),
            "{shown}"
        );
    }
    let bad = "postgres://jay@db.example:notaport/jay?password=s3cret";
    let e = read(&[("JAY_DATABASE_URL", bad)])
        .expect_err(bad)
        .to_string();
    assert!(!e.contains("s3cret"), "{e}");
}

#[test]
fn a_remote_server_without_a_checked_certificate_is_warned_of() {
    let warning = |url: &str| {
        read(&[("JAY_DATABASE_URL", url)])
            .expect(url)
            .database
            .tls_warning()
    };
    for url in [
        "postgres://jay:pw@db.example/jay",
        "postgres://jay:pw@db.example/jay?sslmode=require",
        "postgres://jay:pw@db.example/jay?sslmode=prefer",
        "postgres://jay:pw@203.0.113.9/jay?sslmode=disable",
    ] {
        let w = warning(url).unwrap_or_else(|| panic!("{url}: no warning"));
        assert!(
            w.contains("not verified") && w.contains("sslmode=verify-full"),
            "{w}"
        );
        assert!(!w.contains("pw@"), "{w}");
    }
    for url in [
        "postgres://jay:pw@db.example/jay?sslmode=verify-full",
        "postgres://jay:pw@db.example/jay?sslmode=verify-ca",
        "postgres://jay:pw@localhost/jay",
        "postgres://jay:pw@127.0.0.1:54329/jay",
        "postgres://jay:pw@[::1]/jay?sslmode=disable",
        "sqlite:/tmp/x.db",
    ] {
        assert_eq!(warning(url), None, "{url}");
    }
}

#[test]
fn the_ceiling_defaults_to_a_gigabyte_and_a_bad_one_is_named() {
    assert_eq!(read(&[]).expect("defaults").max_mb, 1024);
    assert_eq!(
        read(&[("JAY_INSIGHTS_MAX_MB", "50")])
            .expect("50")
            .max_bytes(),
        50_000_000
    );
    for bad in ["0", "-1", "lots", "2000000"] {
        let e = read(&[("JAY_INSIGHTS_MAX_MB", bad)])
            .expect_err(bad)
            .to_string();
        assert!(e.contains("JAY_INSIGHTS_MAX_MB must be"), "{e}");
    }
}
