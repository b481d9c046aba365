cat <<EOF
x
EOF
