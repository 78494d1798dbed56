package hid

func Hidden() {}
