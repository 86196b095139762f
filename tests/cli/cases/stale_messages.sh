# shellcheck shell=sh
# What the program prints must still be true (issue 24's stale statements):
# sourced by tests/cli/run.sh.

# runnable-boost's note: rt-app is modelled; what the pixel6 half lacks is schedutil
run_cmd schedlab study runnable-boost --quick --runs 2 -j 2
last=$(tail -1 "$tmp/out")
case $last in
*"rt-app and cpufreq"* | *"needs rt-app"*) not_ok "runnable-boost's note: rt-app is modelled" "$last" ;;
*schedutil*) ok "runnable-boost's note: rt-app is modelled, schedutil is what is missing" ;;
*) not_ok "runnable-boost's note names schedutil" "status $status: $last" ;;
esac
