export default class { m() {} }
