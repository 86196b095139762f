# shellcheck shell=sh
# The man pages (issue 24): one per command, rendered by scripts/mkman.sh
# from the command's --help; each page's text must be its --help word for
# word, so the two cannot drift. Sourced by tests/cli/run.sh.

# the words of a page, less what the page adds (NAME, EXIT STATUS, SEE
# ALSO, section headings) and with roff's escapes undone
man_words() {
	awk '/^\.SH NAME/ { skip = 1; next }
		/^\.SH EXIT STATUS/ { exit }
		/^\.SH / { skip = 0; next }
		/^\./ || skip { next }
		{ print }' "$1" |
		sed -e 's/\\f[BIR]//g' -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g' | tr -s ' \t' '\n\n' | sed '/^$/d'
}
# the words of a --help, less "usage:" and heading lines ("commands:")
help_words() {
	sed -e '1s/^usage: //' -e '/^[a-z][a-z ]*:$/d' "$1" | tr -s ' \t' '\n\n' | sed '/^$/d'
}

man_cmds=$("$SCHEDLAB" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
if sh "$root/scripts/mkman.sh" "$SCHEDLAB" "$tmp/man" 2>"$tmp/man.err"; then
	for page in schedlab $man_cmds; do
		f=$tmp/man/schedlab-$page.1
		if [ "$page" = schedlab ]; then
			f=$tmp/man/schedlab.1
			"$SCHEDLAB" --help >"$tmp/man.help"
		else
			"$SCHEDLAB" "$page" --help >"$tmp/man.help"
		fi
		if [ ! -f "$f" ]; then
			not_ok "man page of $page" "scripts/mkman.sh wrote no $f"
			continue
		fi
		man_words "$f" >"$tmp/man.w1"
		help_words "$tmp/man.help" >"$tmp/man.w2"
		if [ -s "$tmp/man.w2" ] && cmp -s "$tmp/man.w1" "$tmp/man.w2"; then
			ok "man page of $page: its --help, word for word"
		else
			not_ok "man page of $page: its --help, word for word" \
				"$(diff "$tmp/man.w2" "$tmp/man.w1" | head -8)"
		fi
		if grep -q "^\.TH $(basename "$f" .1 | tr '[:lower:]' '[:upper:]') 1 " "$f" &&
			grep -q '^\.SH SYNOPSIS$' "$f" && grep -q '^\.SH EXIT STATUS$' "$f"; then
			ok "man page of $page: TH, SYNOPSIS, EXIT STATUS"
		else
			not_ok "man page of $page: TH, SYNOPSIS, EXIT STATUS"
		fi
		# roff: every request is one the pages use
		if bad=$(grep -n '^[.'"'"']' "$f" | grep -Ev ':\.(TH|SH|TP|PP|nf|fi|nh|ad l|\\")( |$)'); then
			not_ok "man page of $page: only the man macros mkman.sh writes" "$bad"
		else
			ok "man page of $page: only the man macros mkman.sh writes"
		fi
		if command -v groff >/dev/null 2>&1; then
			warn=$(groff -man -Tutf8 -ww -z "$f" 2>&1)
			if [ -z "$warn" ]; then ok "man page of $page: groff renders it without a warning"; else
				not_ok "man page of $page: groff warns" "$warn"; fi
		fi
		# git's convention: 'schedlab help CMD' is 'schedlab CMD --help'
		if [ "$page" != schedlab ]; then
			"$SCHEDLAB" help "$page" >"$tmp/man.help2" 2>&1
			if cmp -s "$tmp/man.help" "$tmp/man.help2"; then ok "help $page is $page --help"; else not_ok "help $page is $page --help"; fi
		fi
	done
	# the page's NAME line is the command's line in schedlab --help
	if grep -qx 'schedlab\\-topo \\- print a machine'"'"'s topology' "$tmp/man/schedlab-topo.1"; then
		ok "man page NAME: the command's line in schedlab --help"
	else
		not_ok "man page NAME" "$(sed -n '/^\.SH NAME/,/^\.SH SYN/p' "$tmp/man/schedlab-topo.1")"
	fi
	# no page for a command that does not exist
	n=$(ls "$tmp/man" | wc -l)
	if [ "$n" -eq $(($(echo "$man_cmds" | wc -w) + 1)) ]; then ok "man pages: schedlab.1 and one per command ($n)"; else
		not_ok "man pages: one per command" "$(ls "$tmp/man")"; fi
else
	not_ok "scripts/mkman.sh" "$(cat "$tmp/man.err")"
fi
expect_exit 2 "help: unknown command 'nosuch' (see 'schedlab --help')" schedlab help nosuch
expect_exit 2 "help takes one command, got 'x' too" schedlab help run x
run_cmd schedlab help
if [ "$status" -eq 0 ] && grep -q '^       schedlab help \[COMMAND\]$' "$tmp/out"; then ok "help alone: the usage, naming help COMMAND"; else not_ok "help alone"; fi
