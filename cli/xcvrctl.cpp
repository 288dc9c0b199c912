#include <cstdio>
int main() { std::puts("xcvrctl"); return 0; }
