// Temporary: keeps the target non-empty until its first source file lands.
