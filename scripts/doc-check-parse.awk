# SPDX-License-Identifier: GPL-2.0-only
# scripts/doc-check.sh's page reader (docs/doc-check.md): finds a Markdown
# page's code blocks and their doc-check markers and writes, into the
# directory `out`, what the check runs and expects:
#   out/manifest   one line a block: N kind marker_line first last indent exit file ncmd
#                  (tab-separated; kind: run, skip, file, figures)
#   out/N.cmdK     command K of block N, as sh runs it
#   out/N.expK     what the page shows as its output (block indentation removed)
#   out/N.posK     "START END": the page lines of that output (END = START - 1: none)
#   out/N.setup    the marker's setup: lines
#   out/N.fig      figures: lines "K<TAB>TEXT"
#   out/N.ctx      figures: the page text around the block
#   out/errors     "page:line: message" for blocks the check cannot accept
# usage: awk -v page=NAME -v out=DIR -f doc-check-parse.awk PAGE.md

function err(line, msg) {
	print page ":" line ": " msg >> (out "/errors")
	close(out "/errors")
}

function lead(s,    n) {
	n = match(s, /[^ ]/)
	return n ? n - 1 : length(s)
}

function blank(s) {
	return s ~ /^[ \t]*$/
}

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# a line the modelled tools print (an unmarked block holding one is output
# shown without its command: it must be marked)
function looks_like_output(s) {
	return s ~ /^# Running '|^Running in (process|threaded) mode|^Time: [0-9]|^ *Total time: [0-9]|^stress-ng: (info|metrc):|^ipistorm: |^ *Performance counter stats for|^schedlab (ab|study):|^COUNT\||^REAIM Workload|^Latency percentiles|^Wakeup Latencies|^\[rt-app\] |^CPU[0-9]+ attaching|^version 17$|^# tracer: |^sweep: |^Machine: [^ ]+ \(/
}

# the marker's first line: kind and its words
function parse_marker(s,    rest) {
	rest = s
	sub(/^[ \t]*<!--[ \t]*doc-check:[ \t]*/, "", rest)
	sub(/[ \t]*-->[ \t]*$/, "", rest)
	mk_kind = rest
	sub(/[ \t].*/, "", mk_kind)
	mk_args = substr(rest, length(mk_kind) + 1)
	mk_args = trim(mk_args)
}

# one body line of a marker ("key: value")
function marker_body(s,    key, val) {
	s = trim(s)
	if (s == "")
		return
	key = s
	sub(/:.*/, "", key)
	val = s
	if (!sub(/^[a-z0-9]+:[ \t]?/, "", val)) {
		err(mk_line, "doc-check marker: '" s "' is not KEY: VALUE (cmd, setup, or a figure N: TEXT)")
		return
	}
	if (key == "cmd")
		mk_cmd[++mk_ncmd] = val
	else if (key == "setup")
		mk_setup[++mk_nsetup] = val
	else if (key ~ /^[0-9]+$/)
		mk_fig[++mk_nfig] = key "\t" val
	else
		err(mk_line, "doc-check marker: unknown key '" key ":' (cmd, setup, or a figure N: TEXT)")
}

function reset_marker() {
	mk_kind = ""
	mk_args = ""
	mk_line = 0
	mk_ncmd = mk_nsetup = mk_nfig = 0
	delete mk_cmd
	delete mk_setup
	delete mk_fig
}

# the paragraph of text that ends just before line @i (for figures)
function para_before(i,    s) {
	s = ""
	while (i >= 1 && (blank(L[i]) || L[i] ~ /^[ \t]*<!--/ || L[i] ~ /-->[ \t]*$/))
		i--
	while (i >= 1 && !blank(L[i])) {
		s = L[i] "\n" s
		i--
	}
	return s
}

function para_after(i,    s) {
	s = ""
	while (i <= NL && blank(L[i]))
		i++
	while (i <= NL && !blank(L[i])) {
		s = s L[i] "\n"
		i++
	}
	return s
}

# the block's lines first..last (page lines) with its indentation removed, in C[]
function block_content(first, last, indent,    i, s) {
	nc = 0
	for (i = first; i <= last; i++) {
		s = L[i]
		if (indent > 0) {
			if (blank(s))
				s = ""
			else
				s = substr(s, indent + 1)
		}
		C[++nc] = s
		CL[nc] = i
	}
}

function write_file(path, text) {
	printf "%s", text > path
	close(path)
}

function handle_block(first, last, indent,    i, j, k, n, s, a, ncmd, has_dollar, kind, args,
		      exitspec, fname, sigline) {
	block_content(first, last, indent)
	nblk++
	kind = mk_kind
	args = mk_args
	# the commands ($ lines, with their \ continuations) and their output
	ncmd = 0
	has_dollar = 0
	delete CMD
	delete EXP
	delete EXPS
	delete EXPE
	delete EXPN
	for (i = 1; i <= nc; i++) {
		if (C[i] ~ /^\$ /) {
			has_dollar = 1
			ncmd++
			s = substr(C[i], 3)
			while (s ~ /\\$/ && i < nc) {
				i++
				s = s "\n" C[i]
			}
			CMD[ncmd] = s
			EXP[ncmd] = ""
			EXPN[ncmd] = 0
			EXPS[ncmd] = CL[i] + 1
			EXPE[ncmd] = CL[i]
		} else if (ncmd) {
			EXP[ncmd] = EXP[ncmd] C[i] "\n"
			EXPN[ncmd]++
			EXPE[ncmd] = CL[i]
		}
	}
	sigline = 0
	for (i = 1; i <= nc && !has_dollar; i++)
		if (looks_like_output(C[i])) {
			sigline = CL[i]
			break
		}
	if (kind == "") {
		for (k = 1; k <= ncmd; k++)
			for (j = EXPS[k]; j <= EXPE[k]; j++)
				if (!blank(L[j])) {
					err(EXPS[k] - 1, "a command shown with its output and no doc-check marker: mark it run, reduced, file, figures or skip (why) (docs/doc-check.md)")
					return
				}
		if (sigline)
			err(sigline, "this block looks like a modelled tool's output but has no doc-check marker: mark it with the command that prints it (run, cmd:) or skip (why) (docs/doc-check.md)")
		return
	}
	exitspec = "0"
	fname = ""
	if (kind == "skip") {
		if (args !~ /[A-Za-z]/)
			err(mk_line, "doc-check: skip needs a reason: <!-- doc-check: skip (why) -->")
		print nblk "\tskip\t" mk_line "\t" first "\t" last "\t" indent "\t-\t-\t0" >> (out "/manifest")
		return
	}
	if (kind == "rows") {
		if (args != "" || mk_ncmd != 1 || has_dollar) {
			err(mk_line, "doc-check rows: give the command on one cmd: line, before a Markdown table")
			return
		}
		ncmd = 1
		CMD[1] = mk_cmd[1]
		EXP[1] = ""
		for (i = 1; i <= nc; i++)
			EXP[1] = EXP[1] C[i] "\n"
		EXPS[1] = first
		EXPE[1] = last
	} else if (kind == "run" || kind == "reduced" || kind == "file") {
		n = split(args, a, /[ \t]+/)
		for (i = 1; i <= n; i++) {
			if (a[i] == "")
				continue
			if (a[i] ~ /^exit=[0-9]+(,[0-9]+)*$/)
				exitspec = substr(a[i], 6)
			else if (kind == "file" && fname == "")
				fname = a[i]
			else {
				err(mk_line, "doc-check " kind ": unknown word '" a[i] "' (exit=N" (kind == "file" ? ", the file's name" : "") ")")
				return
			}
		}
		if (kind == "file" && fname == "") {
			err(mk_line, "doc-check file: name the file: <!-- doc-check: file NAME -->")
			return
		}
		if (kind == "reduced" && !mk_ncmd) {
			err(mk_line, "doc-check reduced: give the reduced command on a cmd: line")
			return
		}
		if (has_dollar) {
			if (mk_ncmd && mk_ncmd != ncmd) {
				err(mk_line, "doc-check " kind ": " mk_ncmd " cmd: lines for " ncmd " commands in the block")
				return
			}
			for (k = 1; k <= mk_ncmd; k++)
				CMD[k] = mk_cmd[k]
		} else {
			if (mk_ncmd != 1) {
				err(mk_line, "doc-check " kind ": a block without a $ command needs one cmd: line (the command whose output it shows)")
				return
			}
			ncmd = 1
			CMD[1] = mk_cmd[1]
			EXP[1] = ""
			for (i = 1; i <= nc; i++)
				EXP[1] = EXP[1] C[i] "\n"
			EXPN[1] = nc
			EXPS[1] = first
			EXPE[1] = last
		}
		if (kind == "reduced")
			kind = "run"
	} else if (kind == "figures") {
		if (args != "") {
			err(mk_line, "doc-check figures: the figures go on lines 'N: TEXT' inside the marker")
			return
		}
		# every line of the block is a command ($ or not); then the cmd: lines
		ncmd = 0
		for (i = 1; i <= nc; i++) {
			s = C[i]
			if (blank(s) || s ~ /^[ \t]*#/)
				continue
			sub(/^\$ /, "", s)
			while (s ~ /\\$/ && i < nc) {
				i++
				s = s "\n" C[i]
			}
			CMD[++ncmd] = s
			EXP[ncmd] = ""
			EXPS[ncmd] = 0
			EXPE[ncmd] = -1
		}
		for (k = 1; k <= mk_ncmd; k++) {
			CMD[++ncmd] = mk_cmd[k]
			EXP[ncmd] = ""
			EXPS[ncmd] = 0
			EXPE[ncmd] = -1
		}
		if (!mk_nfig) {
			err(mk_line, "doc-check figures: no figure (lines 'N: TEXT' inside the marker)")
			return
		}
		for (k = 1; k <= mk_nfig; k++) {
			split(mk_fig[k], a, "\t")
			if (a[1] + 0 < 1 || a[1] + 0 > ncmd) {
				err(mk_line, "doc-check figures: figure '" mk_fig[k] "' names command " a[1] " of " ncmd)
				return
			}
			printf "%s\n", mk_fig[k] > (out "/" nblk ".fig")
		}
		close(out "/" nblk ".fig")
		write_file(out "/" nblk ".ctx", para_before(mk_line - 1) "\n" para_after(last + 1))
	} else {
		err(mk_line, "doc-check: unknown kind '" kind "' (run, reduced, file, figures, rows, skip)")
		return
	}
	if (!ncmd) {
		err(mk_line, "doc-check " kind ": the block has no command")
		return
	}
	n = split(exitspec, a, ",")
	if (n != 1 && n != ncmd) {
		err(mk_line, "doc-check: exit= gives " n " statuses for " ncmd " commands")
		return
	}
	for (k = 1; k <= ncmd; k++) {
		write_file(out "/" nblk ".cmd" k, CMD[k] "\n")
		write_file(out "/" nblk ".exp" k, EXP[k])
		write_file(out "/" nblk ".pos" k, EXPS[k] " " EXPE[k] "\n")
	}
	s = ""
	for (k = 1; k <= mk_nsetup; k++)
		s = s mk_setup[k] "\n"
	write_file(out "/" nblk ".setup", s)
	print nblk "\t" kind "\t" mk_line "\t" first "\t" last "\t" indent "\t" exitspec "\t" (fname == "" ? "-" : fname) "\t" ncmd >> (out "/manifest")
	close(out "/manifest")
}

{ L[++NL] = $0 }

END {
	reset_marker()
	nblk = 0
	prev_text = ""
	printf "" > (out "/manifest")
	close(out "/manifest")
	for (i = 1; i <= NL; i++) {
		line = L[i]
		# a marker: its first line, then body lines up to -->
		if (line ~ /^ ? ? ?<!--[ \t]*doc-check:/) {
			if (mk_kind != "")
				err(mk_line, "doc-check marker not followed by a code block")
			reset_marker()
			mk_line = i
			if (line ~ /-->[ \t]*$/) {
				parse_marker(line)
			} else {
				parse_marker(line "-->")
				while (++i <= NL && L[i] !~ /-->[ \t]*$/)
					marker_body(L[i])
				if (i > NL) {
					err(mk_line, "doc-check marker without its closing -->")
					exit
				}
				s = L[i]
				sub(/-->[ \t]*$/, "", s)
				marker_body(s)
			}
			if (mk_kind == "")
				err(mk_line, "doc-check marker without a kind (run, reduced, file, figures, rows, skip)")
			after_marker = 1
			continue
		}
		# a fenced block
		if (line ~ /^ *(```|~~~)/) {
			fi = lead(line)
			fmark = substr(line, fi + 1, 3)
			for (j = i + 1; j <= NL; j++)
				if (substr(L[j], lead(L[j]) + 1, 3) == fmark && trim(L[j]) ~ /^(```|~~~)+$/)
					break
			if (j > i + 1)
				handle_block(i + 1, j - 1, fi)
			reset_marker()
			i = j
			after_marker = 0
			prev_text = ""
			continue
		}
		# an indented block: after a blank line (or a marker), indented 4
		# more than the text it belongs to
		cind = 0
		if (prev_text ~ /^ *([-*+]|[0-9]+\.) +/) {
			match(prev_text, /^ *([-*+]|[0-9]+\.) +/)
			cind = RLENGTH
		} else if (prev_text != "") {
			cind = lead(prev_text)
		}
		ind = cind + 4
		if (lead(line) < ind && lead(line) >= 4)
			ind = 4
		if (!blank(line) && lead(line) >= ind && (i == 1 || blank(L[i - 1]) || after_marker)) {
			last = i
			for (j = i + 1; j <= NL; j++) {
				if (blank(L[j]))
					continue
				if (lead(L[j]) < ind)
					break
				last = j
			}
			handle_block(i, last, ind)
			reset_marker()
			i = last
			after_marker = 0
			continue
		}
		# a Markdown table after a rows marker
		if (mk_kind == "rows" && line ~ /^\|/) {
			for (j = i + 1; j <= NL && L[j] ~ /^\|/; j++)
				;
			handle_block(i, j - 1, 0)
			reset_marker()
			i = j - 1
			after_marker = 0
			prev_text = ""
			continue
		}
		# figures stated in a paragraph: the commands are the marker's
		if (mk_kind == "figures" && !blank(line)) {
			handle_block(i, i - 1, 0)
			reset_marker()
			after_marker = 0
			prev_text = line
			continue
		}
		if (!blank(line)) {
			if (mk_kind != "") {
				err(mk_line, "doc-check marker not followed by a code block")
				reset_marker()
			}
			after_marker = 0
			prev_text = line
		}
	}
	if (mk_kind != "")
		err(mk_line, "doc-check marker not followed by a code block")
}
