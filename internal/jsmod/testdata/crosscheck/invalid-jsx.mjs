const x = <div/>;
