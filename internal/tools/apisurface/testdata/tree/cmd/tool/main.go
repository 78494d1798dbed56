package main

func Exported() {}
func main()     {}
