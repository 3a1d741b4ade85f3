// edgectl's additions to better-sqlite3's Database (12.11.1), included at the end of
// src/objects/database.cpp by build/native/build-sqlite.mjs. Only what JavaScript cannot do:
// an authorizer that asks a JS function, per-connection limits switched on around the statements
// of object code (SQLite checks most of them while preparing, the LIKE and trigger limits while
// stepping), double-quoted string literals, and the offset of the last syntax error.
//
// The authorizer is installed once and never removed: sqlite3_set_authorizer() expires every
// prepared statement of the connection, which would re-prepare edgectl's own statements after
// each call. Outside a guarded window it allows everything without entering JavaScript.

int Database::EdgectlAuthorize(void* self, int action, const char* a, const char* b, const char* db_name, const char* trigger) {
	Database* db = static_cast<Database*>(self);
	if (!db->edgectl_guarded || db->edgectl_authorizer.IsEmpty()) return SQLITE_OK;
	v8::Isolate* isolate = v8::Isolate::GetCurrent();
	v8::HandleScope scope(isolate);
	v8::Local<v8::Context> ctx = isolate->GetCurrentContext();
	auto str = [isolate](const char* s) -> v8::Local<v8::Value> {
		if (s == NULL) return v8::Null(isolate);
		return StringFromUtf8(isolate, s, -1);
	};
	v8::Local<v8::Value> args[5] = { v8::Int32::New(isolate, action), str(a), str(b), str(db_name), str(trigger) };
	v8::TryCatch try_catch(isolate);
	v8::Local<v8::Value> result;
	if (!db->edgectl_authorizer.Get(isolate)->Call(ctx, v8::Undefined(isolate), 5, args).ToLocal(&result)) return SQLITE_DENY;
	if (!result->IsInt32()) return SQLITE_DENY;
	int code = result.As<v8::Int32>()->Value();
	return code == SQLITE_OK || code == SQLITE_IGNORE ? code : SQLITE_DENY;
}

// edgectlGuardConfigure(authorizer: Function, limits: Int32Array of [id, value] pairs)
NODE_METHOD(Database::JS_edgectlGuardConfigure) {
	Database* db = Unwrap<Database>(info.This());
	REQUIRE_DATABASE_OPEN(db);
	REQUIRE_ARGUMENT_FUNCTION(first, v8::Local<v8::Function> fn);
	REQUIRE_ARGUMENT_OBJECT(second, v8::Local<v8::Object> limits);
	if (!limits->IsInt32Array()) return ThrowTypeError("Expected the limits to be an Int32Array");
	UseIsolate;
	v8::Local<v8::Int32Array> pairs = limits.As<v8::Int32Array>();
	size_t n = pairs->Length();
	if (n % 2 != 0) return ThrowTypeError("Expected the limits as [id, value] pairs");
	std::vector<int> values(n);
	pairs->CopyContents(values.data(), n * sizeof(int));
	db->edgectl_limits = values;
	db->edgectl_saved.assign(n / 2, 0);
	db->edgectl_authorizer.Reset(isolate, fn);
	sqlite3_set_authorizer(db->db_handle, EdgectlAuthorize, db);
}

// edgectlGuard(on: boolean): the guarded window around object code's statements.
NODE_METHOD(Database::JS_edgectlGuard) {
	Database* db = Unwrap<Database>(info.This());
	REQUIRE_DATABASE_OPEN(db);
	REQUIRE_ARGUMENT_BOOLEAN(first, bool on);
	if (on == db->edgectl_guarded) return;
	size_t pairs = db->edgectl_limits.size() / 2;
	for (size_t i = 0; i < pairs; i++) {
		int id = db->edgectl_limits[2 * i];
		if (on) db->edgectl_saved[i] = sqlite3_limit(db->db_handle, id, db->edgectl_limits[2 * i + 1]);
		else sqlite3_limit(db->db_handle, id, db->edgectl_saved[i]);
	}
	db->edgectl_guarded = on;
}

// edgectlDoubleQuotedStrings(on: boolean): SQLITE_DBCONFIG_DQS_DML and _DDL.
NODE_METHOD(Database::JS_edgectlDoubleQuotedStrings) {
	Database* db = Unwrap<Database>(info.This());
	REQUIRE_DATABASE_OPEN(db);
	REQUIRE_ARGUMENT_BOOLEAN(first, bool on);
	sqlite3_db_config(db->db_handle, SQLITE_DBCONFIG_DQS_DML, static_cast<int>(on), NULL);
	sqlite3_db_config(db->db_handle, SQLITE_DBCONFIG_DQS_DDL, static_cast<int>(on), NULL);
}

// edgectlErrorOffset(): byte offset of the last error in its SQL text, or -1.
NODE_METHOD(Database::JS_edgectlErrorOffset) {
	Database* db = Unwrap<Database>(info.This());
	REQUIRE_DATABASE_OPEN(db);
	info.GetReturnValue().Set(sqlite3_error_offset(db->db_handle));
}
