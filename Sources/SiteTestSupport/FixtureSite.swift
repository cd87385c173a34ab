// The fixture site (placeholder while building).
