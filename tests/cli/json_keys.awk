# SPDX-License-Identifier: GPL-2.0-only
# The key paths of a JSON text, one a line (machine.name,
# sched.per_cpu[].busy_ns, ...), for tests/cli/cases/json_schema.sh. It also
# reads docs/json-schema.md's annotated JSON: // comments and missing commas
# are skipped, and a "..." inside an object (as in "features": { "PLACE_LAG":
# true, ... }) stands for more keys, written PATH.*.
#   awk -f tests/cli/json_keys.awk FILE.json
function emit(k) { print k }
BEGIN { depth = 0; path[0] = ""; kind[0] = "" }
{
	line = $0
	# drop // comments outside strings
	out = ""; instr = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (instr) {
			out = out c
			if (c == "\\") { out = out substr(line, i + 1, 1); i++; continue }
			if (c == "\"") instr = 0
			continue
		}
		if (c == "\"") { instr = 1; out = out c; continue }
		if (c == "/" && substr(line, i + 1, 1) == "/") break
		out = out c
	}
	text = text out "\n"
}
END {
	n = length(text); i = 1; pending = ""
	while (i <= n) {
		c = substr(text, i, 1)
		if (c == "\"") {
			j = i + 1; s = ""
			while (j <= n) {
				d = substr(text, j, 1)
				if (d == "\\") { s = s d substr(text, j + 1, 1); j += 2; continue }
				if (d == "\"") break
				s = s d; j++
			}
			i = j + 1
			# a key when a colon follows
			k = i
			while (k <= n && substr(text, k, 1) ~ /[ \t\n]/) k++
			if (substr(text, k, 1) == ":" && kind[depth] == "o") {
				pending = (path[depth] == "" ? "" : path[depth] ".") s
				emit(pending)
				i = k + 1
			}
			continue
		}
		if (substr(text, i, 3) == "..." && kind[depth] == "o") {
			emit((path[depth] == "" ? "" : path[depth] ".") "*")
			i += 3
			continue
		}
		if (c == "{" || c == "[") {
			if (kind[depth] == "a")
				p = path[depth] "[]"
			else
				p = pending
			depth++
			path[depth] = p
			kind[depth] = (c == "{") ? "o" : "a"
			pending = ""
		} else if (c == "}" || c == "]") {
			if (depth > 0) depth--
			pending = ""
		}
		i++
	}
}
