// SPDX-License-Identifier: GPL-2.0-only
#include "report/version.h"

#include "report/json.h"

void json_kv_schedlab(struct json_writer *w)
{
	json_key(w, "schedlab");
	json_begin_object(w);
	json_kv_str(w, "version", schedlab_version);
	json_kv_str(w, "commit", schedlab_commit);
	json_end_object(w);
}
