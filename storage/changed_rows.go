package storage

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
)

// The writer learns which kept rows (kept.go) a batch changed from the
// statements it ran, not from a hook on every row SQLite writes (a
// pre-update hook cost writes 11 to 22%). Each statement's SQL is read once,
// the first time the writer runs it, into a rowChange: an UPDATE or DELETE
// of a kept table whose only WHERE is "id = ?" changes the row named by that
// argument; a plain INSERT changes no row a reader could have kept (the id
// did not exist); anything else that writes a kept table, directly or
// through a trigger or a foreign key's ON DELETE/ON UPDATE action, changes
// the whole table as far as the kept rows are concerned. Reading SQL text is
// conservative by construction: what it cannot read precisely it counts as
// a change of whole tables.

// tableSet is a set of kept tables.
type tableSet uint8

const allTables tableSet = 1<<numTables - 1

// changedRows is what a batch changed of the kept tables.
type changedRows struct {
	ids   [numTables][]string
	whole tableSet
}

func (c *changedRows) empty() bool {
	if c.whole != 0 {
		return false
	}
	for _, ids := range c.ids {
		if len(ids) > 0 {
			return false
		}
	}
	return true
}

func (c *changedRows) reset() {
	c.whole = 0
	for t := range c.ids {
		c.ids[t] = c.ids[t][:0]
	}
}

// rowChange is what running one statement changes of the kept tables.
type rowChange struct {
	table Table // the kept table whose row idArg names, if idArg >= 0
	idArg int
	whole tableSet
}

// note adds what running the statement with args changed to c.
func (r rowChange) note(c *changedRows, args []any) {
	c.whole |= r.whole
	if r.idArg < 0 || r.idArg >= len(args) {
		return
	}
	switch id := args[r.idArg].(type) {
	case string:
		c.ids[r.table] = append(c.ids[r.table], id)
	case *string:
		if id != nil {
			c.ids[r.table] = append(c.ids[r.table], *id)
		}
	default: // an id of a type not read here: count the table as changed
		c.whole |= 1 << r.table
	}
}

// rowChanges reads statements into rowChanges and remembers them. It is used
// by the writer goroutine only.
type rowChanges struct {
	schema schemaLinks
	byText map[string]rowChange
}

// of returns what the statement query changes.
func (rc *rowChanges) of(query string) rowChange {
	if r, ok := rc.byText[query]; ok {
		return r
	}
	r := rc.schema.read(query)
	rc.byText[query] = r
	return r
}

// op is the kind of a write: what triggers and foreign-key actions follow.
type op uint8

const (
	opInsert op = iota
	opUpdate
	opDelete
)

var ops = map[string]op{"insert": opInsert, "replace": opInsert, "update": opUpdate, "delete": opDelete}

// write is one write to a table that another write causes.
type write struct {
	table string
	op    op
}

// schemaLinks says, for each kind of write to a table, which other writes
// it causes: its triggers' statements, and the foreign-key actions of the
// tables whose keys point at it.
type schemaLinks map[write][]write

var (
	space     = regexp.MustCompile(`\s+`)
	wordRE    = regexp.MustCompile(`[a-z_][a-z0-9_]*`)
	writeHead = regexp.MustCompile(`^(insert|replace|update|delete)\b(?: or \w+)?(?: into| from)? ("?[a-z_][a-z0-9_."]*)`)
	// triggerHead and triggerWrites read a trigger's event and the writes
	// of its body.
	triggerHead   = regexp.MustCompile(`^create trigger (?:if not exists )?\S+ (?:before |after |instead of )?(insert|update|delete)\b.*? on "?([a-z_][a-z0-9_]*)"? `)
	triggerWrites = regexp.MustCompile(`\b(insert|replace|update|delete)\b(?: or \w+)?(?: into| from)? "?([a-z_][a-z0-9_]*)`)
	// byID is the only WHERE of a statement that changes one row named by id.
	byID = regexp.MustCompile(` where id = \?( |$)`)
)

// read works out what the statement query changes.
func (s schemaLinks) read(query string) rowChange {
	q := strings.TrimSpace(space.ReplaceAllString(strings.ToLower(query), " "))
	first, _, _ := strings.Cut(q, " ")
	switch first {
	case "select", "pragma", "begin", "commit", "end", "rollback", "savepoint", "release", "explain":
		return rowChange{idArg: -1}
	}
	m := writeHead.FindStringSubmatch(q)
	if m == nil { // a WITH clause, DDL, anything not read here
		return rowChange{idArg: -1, whole: allTables}
	}
	verb, target := m[1], strings.Trim(m[2], `"`)
	if strings.Contains(target, ".") { // a schema-qualified name
		return rowChange{idArg: -1, whole: allTables}
	}
	r := rowChange{idArg: -1, whole: s.linked(write{target, ops[verb]}, map[write]bool{})}
	t, kept := keptTable(target)
	switch {
	case !kept:
	case verb == "insert" && !strings.HasPrefix(q, "insert or replace") && !strings.Contains(q, " on conflict "):
		// a new row: no reader can have kept it
	case verb != "insert" && verb != "replace":
		if i := idArgument(q); i >= 0 {
			r.table, r.idArg = t, i
			break
		}
		r.whole |= 1 << t
	default:
		r.whole |= 1 << t
	}
	return r
}

// idArgument returns the index of the argument that names the one row an
// UPDATE or DELETE changes, or -1 when its WHERE is anything but "id = ?" (a
// subquery's WHERE, numbered or named parameters, a join with FROM).
func idArgument(q string) int {
	if strings.Count(q, " where ") != 1 || strings.ContainsAny(q, "$@:") || strings.Contains(q, " from ") && strings.HasPrefix(q, "update") {
		return -1
	}
	loc := byID.FindStringIndex(q)
	if loc == nil {
		return -1
	}
	if rest := q[loc[1]:]; rest != "" && !strings.HasPrefix(rest, "and ") && !strings.HasPrefix(rest, "returning ") {
		return -1 // an OR, or something else that widens the WHERE
	}
	n, quoted := 0, false
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\'':
			quoted = !quoted
		case c == '?' && !quoted:
			if i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9' {
				return -1 // numbered parameters
			}
			if i < loc[0] {
				n++
			}
		}
	}
	return n
}

func keptTable(name string) (Table, bool) {
	for t, n := range keptTables {
		if n == name {
			return Table(t), true
		}
	}
	return 0, false
}

// linked returns the kept tables that w changes through triggers and
// foreign-key actions, followed from table to table.
func (s schemaLinks) linked(w write, seen map[write]bool) tableSet {
	if seen[w] {
		return 0
	}
	seen[w] = true
	var set tableSet
	for _, next := range s[w] {
		if t, ok := keptTable(next.table); ok {
			set |= 1 << t
		}
		set |= s.linked(next, seen)
	}
	return set
}

// readSchemaLinks reads the triggers and foreign keys of the database.
func readSchemaLinks(ctx context.Context, conn *sql.Conn) (schemaLinks, error) {
	s := schemaLinks{}
	var tables []string
	rows, err := conn.QueryContext(ctx, `SELECT type, lower(name), lower(coalesce(sql, '')) FROM sqlite_master
		WHERE type IN ('table', 'trigger')`)
	if err != nil {
		return s, fmt.Errorf("read schema: %w", err)
	}
	for rows.Next() {
		var typ, name, body string
		if err := rows.Scan(&typ, &name, &body); err != nil {
			rows.Close()
			return s, fmt.Errorf("read schema: %w", err)
		}
		if typ == "table" {
			tables = append(tables, name)
			continue
		}
		body = space.ReplaceAllString(body, " ")
		m := triggerHead.FindStringSubmatch(body)
		if m == nil {
			rows.Close()
			return s, fmt.Errorf("read schema: trigger %s not understood", name)
		}
		on := write{m[2], ops[m[1]]}
		_, body, _ = strings.Cut(body, " begin ")
		for _, w := range triggerWrites.FindAllStringSubmatch(body, -1) {
			s[on] = append(s[on], write{w[2], ops[w[1]]})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s, fmt.Errorf("read schema: %w", err)
	}
	for _, child := range tables {
		fks, err := conn.QueryContext(ctx, `SELECT lower("table"), upper(on_update), upper(on_delete) FROM pragma_foreign_key_list(?)`, child)
		if err != nil {
			return s, fmt.Errorf("read foreign keys of %s: %w", child, err)
		}
		for fks.Next() {
			var parent, onUpdate, onDelete string
			if err := fks.Scan(&parent, &onUpdate, &onDelete); err != nil {
				fks.Close()
				return s, fmt.Errorf("read foreign keys of %s: %w", child, err)
			}
			for on, action := range map[op]string{opUpdate: onUpdate, opDelete: onDelete} {
				switch {
				case action == "CASCADE" && on == opDelete:
					s[write{parent, on}] = append(s[write{parent, on}], write{child, opDelete})
				case action == "CASCADE" || action == "SET NULL" || action == "SET DEFAULT":
					s[write{parent, on}] = append(s[write{parent, on}], write{child, opUpdate})
				}
			}
		}
		fks.Close()
		if err := fks.Err(); err != nil {
			return s, fmt.Errorf("read foreign keys of %s: %w", child, err)
		}
	}
	return s, nil
}
