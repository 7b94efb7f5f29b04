package web

// DashboardRoutePatterns lists the patterns of the dashboard's routes that
// need a signed-in member, so the security tests can check they cover each.
func DashboardRoutePatterns() []string {
	var out []string
	for _, rt := range (&dashboard{}).allRoutes() {
		out = append(out, rt.pattern)
	}
	return out
}
