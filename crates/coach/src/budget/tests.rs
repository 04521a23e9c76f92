//! The budget's limits: calls at once, calls a day, each client's share of
//! the day, and the day's count saved and restored.

use super::*;

fn client(n: u8) -> ClientKey {
    ClientKey::from(IpAddr::V4(Ipv4Addr::new(203, 0, 113, n)))
}

#[test]
fn concurrent_calls_are_capped_and_a_finished_call_frees_its_slot() {
    let budget = UpstreamBudget::new(2, 100);
    let a = budget.try_start_on(1, client(1)).unwrap();
    let _b = budget.try_start_on(1, client(2)).unwrap();
    assert!(matches!(
        budget.try_start_on(1, client(3)),
        Err(Limited::Busy)
    ));
    drop(a);
    assert!(budget.try_start_on(1, client(3)).is_ok());
}

#[test]
fn the_daily_budget_runs_out_and_comes_back_the_next_day() {
    let budget = UpstreamBudget::new(10, 3);
    for n in 0..3 {
        assert!(budget.try_start_on(7, client(n)).is_ok());
    }
    assert!(matches!(
        budget.try_start_on(7, client(9)),
        Err(Limited::DailyBudget)
    ));
    assert!(budget.try_start_on(8, client(9)).is_ok(), "a new UTC day");
    assert!(matches!(
        UpstreamBudget::new(1, 0).try_start_on(1, client(1)),
        Err(Limited::DailyBudget)
    ));
}

#[test]
fn a_refunded_call_does_not_count() {
    let budget = UpstreamBudget::new(10, 1);
    budget.try_start_on(3, client(1)).unwrap().refund();
    assert!(
        budget.try_start_on(3, client(1)).is_ok(),
        "the refund made room"
    );
    assert!(matches!(
        budget.try_start_on(3, client(2)),
        Err(Limited::DailyBudget)
    ));
}

#[test]
fn a_clients_share_is_two_percent_of_the_day_at_least_twenty_at_most_the_day() {
    assert_eq!(default_share(DEFAULT_DAILY), 20);
    assert_eq!(default_share(5000), 100);
    assert_eq!(default_share(100_000), 2000);
    assert_eq!(default_share(1000), 20);
    assert_eq!(default_share(100), 20);
    assert_eq!(default_share(3), 3);
    assert_eq!(default_share(0), 0);
    assert_eq!(UpstreamBudget::default().client_share(), 20);
    assert_eq!(
        UpstreamBudget::new(8, 5000)
            .with_client_share(7)
            .client_share(),
        7
    );
}

#[test]
fn a_client_past_its_share_is_kept_out_while_others_are_not() {
    let budget = UpstreamBudget::new(10, 100).with_client_share(2);
    // Dropped without a refund (the visitor hung up): spent all the same.
    drop(budget.try_start_on(5, client(1)).unwrap());
    drop(budget.try_start_on(5, client(1)).unwrap());
    assert!(matches!(
        budget.try_start_on(5, client(1)),
        Err(Limited::DailyBudget)
    ));
    assert!(budget.try_start_on(5, client(2)).is_ok(), "another client");
    assert_eq!(budget.save_on(5).calls, 3);
    // A refund gives the client's call back too.
    budget.try_start_on(5, client(3)).unwrap().refund();
    budget.try_start_on(5, client(3)).unwrap().refund();
    assert!(budget.try_start_on(5, client(3)).is_ok());
    // The next day, every share is back and the table starts empty.
    assert!(budget.try_start_on(6, client(1)).is_ok());
    assert_eq!(budget.clients_counted(), 1);
}

#[test]
fn the_table_of_clients_is_bounded() {
    let budget = UpstreamBudget::new(10, u64::MAX).with_client_share(1);
    for n in 0..MAX_CLIENTS {
        let ip = IpAddr::V6(std::net::Ipv6Addr::from((n as u128) << 64));
        drop(budget.try_start_on(1, ClientKey::from(ip)).unwrap());
    }
    assert_eq!(budget.clients_counted(), MAX_CLIENTS);
    assert!(matches!(
        budget.try_start_on(1, client(1)),
        Err(Limited::DailyBudget)
    ));
    assert_eq!(budget.clients_counted(), MAX_CLIENTS, "not one more");
    assert!(budget.try_start_on(2, client(1)).is_ok(), "a new day");
    assert_eq!(budget.clients_counted(), 1);
}

#[test]
fn the_days_count_is_restored_on_the_same_day_only() {
    let budget = UpstreamBudget::new(10, 100);
    drop(budget.try_start_on(9, client(1)).unwrap());
    assert_eq!(budget.save_on(9), SavedDay { day: 9, calls: 1 });
    assert_eq!(budget.save_on(10), SavedDay { day: 10, calls: 0 });

    let restarted = UpstreamBudget::new(10, 100);
    assert!(!restarted.restore_on(SavedDay { day: 8, calls: 50 }, 9));
    assert_eq!(restarted.save_on(9).calls, 0, "another day's count");
    assert!(restarted.restore_on(SavedDay { day: 9, calls: 99 }, 9));
    assert!(restarted.try_start_on(9, client(2)).is_ok(), "the 100th");
    assert!(matches!(
        restarted.try_start_on(9, client(3)),
        Err(Limited::DailyBudget)
    ));
    // Restoring twice never counts twice.
    assert!(restarted.restore_on(SavedDay { day: 9, calls: 99 }, 9));
    assert_eq!(restarted.save_on(9).calls, 100);
}
