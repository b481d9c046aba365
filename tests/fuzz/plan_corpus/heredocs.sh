cat > cfg.txt <<EOF
a $X
EOF
tee -a log <<-END
	x
	END
uv run python - <<'PY'
print(1)
PY
cat <<A <<B
a
A
b
B
cat <<
